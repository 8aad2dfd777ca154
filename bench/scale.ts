// `npm run -s bench:scale -- [--seed N] [--measure] [--runs R] [--asks A]`: a store as a launch
// leaves it, and every route a person or the team asks of it, timed through the real server.
//
//   --seed N     fills the store (SQLITE_PATH, or DATABASE_URL) with N sign-ups and all that comes
//                with them (bench/scale-seed.ts), and stops, unless --measure is given too
//   (otherwise)  measures the store as it is: the built server on it (npm run build first), each
//                route asked A times after a warm-up, per route its p50, p95 and the longest the
//                server's event loop was held while it answered (perf_hooks' monitorEventLoopDelay
//                in the server's own process); then a sign-up's p99 idle, and while the admin
//                routes are asked without pause.
//   --local-mails M  the local mailbox the Mail view lists (no SMTP_URL): M mails written into the
//                server's MAIL_DIR before it starts (200 unless told), as a team without SMTP has
//                after a day; the view reads the 50 newest
// Numbers go to standard output as a table (and `--json FILE` writes them as JSON).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { quantile, startProbedServer } from './probed-server'
import MailComposer from 'nodemailer/lib/mail-composer'
import { seed, visitorToken } from './scale-seed'

const TOKEN = 'scale-benchmark-admin-token-0123456789'

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    measure: { type: 'boolean' },
    runs: { type: 'string', default: '1' },
    asks: { type: 'string', default: '30' },
    json: { type: 'string' },
    'local-mails': { type: 'string', default: '200' },
  },
})
const env = process.env.DATABASE_URL
  ? { DATABASE_URL: process.env.DATABASE_URL }
  : { SQLITE_PATH: process.env.SQLITE_PATH ?? 'data/waitlist.db' }
const store = env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'
const log = (line: string) => process.stderr.write(`${line}\n`)

interface Row {
  route: string
  p50: number
  p95: number
  /** The longest the event loop was held while the route was asked (ms). */
  loop: number
  /** Answers that were not 2xx (a query past the store's statement timeout answers 503), if any. */
  failed: number
}

/** The routes, as the views and a visitor ask them. */
const ROUTES = (firstPageAfter: number): { name: string; path: string; admin: boolean; stream?: boolean }[] => [
  { name: 'GET /', path: '/', admin: false },
  { name: 'GET /pl/', path: '/pl/', admin: false },
  { name: 'GET /api/launch', path: '/api/launch', admin: false },
  { name: 'GET /me/<token>', path: `/me/${visitorToken(1)}`, admin: false },
  { name: 'stats', path: '/admin/api/stats', admin: true },
  { name: 'signups (first page)', path: '/admin/api/signups?limit=50', admin: true },
  { name: 'signups (a later page)', path: `/admin/api/signups?limit=50&after=${firstPageAfter}`, admin: true },
  { name: 'export.csv (first bytes)', path: '/admin/api/export.csv', admin: true, stream: true },
  { name: 'segments', path: '/admin/api/segments', admin: true },
  { name: 'segments?breed', path: '/admin/api/segments?breed=labrador-retriever', admin: true },
  { name: 'campaigns', path: '/admin/api/campaigns', admin: true },
  { name: 'campaigns/1', path: '/admin/api/campaigns/1', admin: true },
  { name: 'mail', path: '/admin/api/mail', admin: true },
  { name: 'deliverability', path: '/admin/api/deliverability', admin: true },
  { name: 'suppressions', path: '/admin/api/suppressions', admin: true },
  { name: 'funnel', path: '/admin/api/funnel', admin: true },
  { name: 'funnel?breed', path: '/admin/api/funnel?breed=labrador-retriever', admin: true },
  { name: 'breeds', path: '/admin/api/breeds', admin: true },
  { name: 'breeds/unmatched', path: '/admin/api/breeds/unmatched', admin: true },
  { name: 'breeds/targets', path: '/admin/api/breeds/targets', admin: true },
  { name: 'launch-targets', path: '/admin/api/launch-targets', admin: true },
  { name: 'audit', path: '/admin/api/audit', admin: true },
  { name: 'operators', path: '/admin/api/operators', admin: true },
  { name: 'tokens', path: '/admin/api/tokens', admin: true },
  { name: 'webhooks', path: '/admin/api/webhooks', admin: true },
  { name: 'webhooks/1/deliveries', path: '/admin/api/webhooks/1/deliveries', admin: true },
]

/** Mails as the transport writes them without SMTP_URL (server/mail/transport.ts names them so). */
async function writeLocalMails(dir: string, count: number): Promise<void> {
  mkdirSync(dir, { recursive: true })
  for (let i = 0; i < count; i++) {
    const date = new Date(Date.UTC(2026, 10, 30, 9, 0, i))
    const message = await new MailComposer({
      from: 'Kennect <hello@kennect.app>',
      to: `reader-${i}@bench.example`,
      subject: 'Confirm your place on the Kennect waitlist',
      date,
      text: `Confirm and see your page: https://kennect.app/me/${'x'.repeat(43)}\n`,
      html: `<p>Confirm and see your page: <a href="https://kennect.app/me/${'x'.repeat(43)}">your page</a></p>`,
    })
      .compile()
      .build()
    writeFileSync(join(dir, `${date.toISOString().replace(/[:.]/g, '-')}-bench-${i}.eml`), message)
  }
}

async function measure(): Promise<{ rows: Row[]; signup: { idle: number; busy: number } }> {
  const mailDir = mkdtempSync(join(tmpdir(), 'kennect-scale-mail-'))
  await writeLocalMails(mailDir, Number(values['local-mails']))
  const probed = await startProbedServer({ ...env, FORM_MIN_SECONDS: '0' }, TOKEN, mailDir)
  const { server, base, probe } = probed
  const loopMax = () => probe('loop-max')
  try {
    await probed.ready()
    const headers = { authorization: `Bearer ${TOKEN}` }
    const ask = async (route: ReturnType<typeof ROUTES>[number]) => {
      const started = performance.now()
      const answer = await fetch(`${base}${route.path}`, { headers: route.admin ? headers : {} })
      if (!answer.ok) {
        await answer.arrayBuffer()
        failures += 1
        log(`    ${route.name}: ${answer.status} after ${(performance.now() - started).toFixed(0)} ms`)
      } else if (route.stream && answer.body) {
        const reader = answer.body.getReader()
        await reader.read()
        await reader.cancel()
      } else await answer.arrayBuffer()
      return performance.now() - started
    }
    // A page from the middle of the list: after the id half the sign-ups are below.
    const { total } = (await (await fetch(`${base}/admin/api/stats`, { headers })).json()) as { total: number }
    const routes = ROUTES(Math.floor(total / 2))
    const asks = Number(values.asks)
    const rows: Row[] = []
    let failures = 0
    for (const route of routes) {
      for (let i = 0; i < 3; i++) await ask(route) // warm: the first read of a page of the file, a statement's plan
      await loopMax()
      failures = 0
      const times: number[] = []
      for (let i = 0; i < asks; i++) times.push(await ask(route))
      times.sort((a, b) => a - b)
      rows.push({ route: route.name, p50: quantile(times, 0.5), p95: quantile(times, 0.95), loop: await loopMax(), failed: failures })
      log(
        `  ${route.name}: p50 ${rows.at(-1)?.p50.toFixed(1)} ms, p95 ${rows.at(-1)?.p95.toFixed(1)} ms, loop ${rows.at(-1)?.loop.toFixed(1)} ms`,
      )
    }

    // A sign-up's latency: 300 of them, four at a time; idle, then while the admin routes are asked.
    const signUps = async () => (await probed.signUps()).p99
    const idle = await signUps()
    let busy = true
    const admin = routes.filter((route) => route.admin)
    const reading = (async () => {
      for (let i = 0; busy; i++) await ask(admin[i % admin.length] ?? admin[0]!)
    })()
    const underLoad = await signUps()
    busy = false
    await reading
    return { rows, signup: { idle, busy: underLoad } }
  } finally {
    server.kill('SIGTERM')
    await new Promise((resolve) => server.once('exit', resolve))
    rmSync(mailDir, { recursive: true, force: true })
  }
}

async function main() {
  if (values.seed) {
    const n = Number(values.seed)
    if (!Number.isInteger(n) || n < 1) throw new Error(`--seed: expected a number of sign-ups, got ${values.seed}`)
    await seed(env, n, log)
    if (!values.measure) return
  }
  const runs = Number(values.runs)
  const all: Awaited<ReturnType<typeof measure>>[] = []
  for (let run = 1; run <= runs; run++) {
    log(`run ${run} of ${runs} on ${store}`)
    all.push(await measure())
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0
  const rows = all[0]?.rows.map((row, i) => ({
    route: row.route,
    p50: median(all.map((run) => run.rows[i]?.p50 ?? 0)),
    p95: median(all.map((run) => run.rows[i]?.p95 ?? 0)),
    loop: Math.max(...all.map((run) => run.rows[i]?.loop ?? 0)),
    failed: all.reduce((sum, run) => sum + (run.rows[i]?.failed ?? 0), 0),
  }))
  const cpu = cpus()
  const lines = [
    `bench:scale on ${store}, ${cpu.length} cores (${cpu[0]?.model ?? 'unknown'}), Node ${process.versions.node}, ${runs} run(s) of ${values.asks} asks (medians; loop: the longest of any run)`,
    '',
    `| route | p50 ms | p95 ms | loop held ms | failed |`,
    `| --- | ---: | ---: | ---: | ---: |`,
    ...(rows ?? []).map(
      (row) => `| ${row.route} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.loop.toFixed(1)} | ${row.failed || ''} |`,
    ),
    '',
    `sign-up p99: idle ${median(all.map((run) => run.signup.idle)).toFixed(1)} ms, while the admin is read ${median(all.map((run) => run.signup.busy)).toFixed(1)} ms`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  if (values.json) writeFileSync(values.json, JSON.stringify({ store, runs: all }, null, 2))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
