// `npm run bench`: sign-ups per second and latency of the real server (dist/server/main.js) on
// SQLite and, when TEST_DATABASE_URL is set, PostgreSQL, beside a bare Fastify route as the
// ceiling of this machine; and the landing page (`GET /`) per second, with its views counted for
// the funnel and without (COUNT_PAGE_VIEWS). Unique addresses, logs at info to /dev/null as in
// production. Each store runs three ways: as by default (rate limits off here, views counted),
// with views not counted, and with rate limits on (set too high to refuse anyone, so that what is
// measured is the cost of counting: in memory on SQLite, in the database on PostgreSQL). Requests
// come from 1,000 client addresses behind a trusted proxy, pages with a browser's User-Agent and
// Accept-Encoding. Load comes from autocannon in this process; each server is its own process.
// BENCH_TARGETS (comma list of words of the targets' names) runs only those.
// Beside each row, the CPU time per answer of the server (from /proc, on Linux) and of the load
// generator: on a machine whose cores the two share, a ratio to the bare route measures the load
// generator's share too (docs/performance.md, issue 23), and CPU per answer does not.
import autocannon from 'autocannon'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureBuild, root } from '../scripts/ensure-build.mjs'
import { loadConfig } from '../server/config'
import { createStore } from '../server/store/index'
import { createTestSchema, TEST_DATABASE_URL } from '../tests/support/postgres'
import { tempSqlitePath } from '../tests/support/server'
import { freePort } from '../tests/support/ports'
import { serverNodeFlags } from './probed-server'

const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10,100').split(',').map(Number)
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5)

interface Target {
  name: string
  /** Rate limits on (counted, never reached). */
  limits?: boolean
  /** Views of the landing page counted (COUNT_PAGE_VIEWS); the bare route has no page. */
  pages?: { counted: boolean }
  entry: string
  env: Record<string, string>
  /** Rows stored, to check that every 201 is a row. */
  count?: () => Promise<number>
  cleanup: () => Promise<void>
}

interface Row {
  target: string
  load: Load
  connections: number
  perSecond: number
  p50: number
  p99: number
  errors: number
  created: number
  /** CPU time per answer (user and system), in µs: the server's (undefined without /proc) and the load generator's. */
  serverUs: number | undefined
  loadUs: number
}

/** The kernel's clock ticks per second, which /proc counts CPU time in (100 nearly everywhere). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** The CPU seconds (user and system) a process has used: from /proc/<pid>/stat on Linux, undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After the command's name (in parentheses, which may hold spaces): utime and stime are the 12th and 13th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return undefined
  }
}

/** Mail goes out as in production, at the default pace; as files in a folder of the bench's own. */
const MAIL_DIR = mkdtempSync(join(tmpdir(), 'kennect-bench-mail-'))
const LIMITS_ON = { RATE_LIMIT_PER_MINUTE: '100000000', RATE_LIMIT_PER_HOUR: '100000000' }
const LIMITS_OFF = { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' }
const BROWSER = 'Mozilla/5.0 (Linux; Android 15) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36'
type Load = 'sign-ups' | 'GET /'
/** The client's address as a proxy reports it: 1,000 clients, so counters and visitors spread as on a real day. */
const clientAddress = (n: number) => `10.0.${(n % 1000) >> 8}.${n % 256}`

async function start(target: Target): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort()
  const child = spawn(process.execPath, [...serverNodeFlags(), target.entry], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      MAIL_DIR,
      TRUST_PROXY: 'loopback',
      COUNT_PAGE_VIEWS: target.pages?.counted === false ? '0' : '1',
      ...(target.limits ? LIMITS_ON : LIMITS_OFF),
      ...target.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) return { url, child }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  child.kill('SIGKILL')
  throw new Error(`${target.name} did not start`)
}

async function load(url: string, kind: Load, connections: number, tag: string): Promise<autocannon.Result> {
  let n = 0
  if (kind === 'GET /') {
    return autocannon({
      url: `${url}/`,
      connections,
      duration: DURATION_S,
      requests: [
        {
          method: 'GET',
          setupRequest: (request) => {
            n++
            const headers = { 'user-agent': BROWSER, 'accept-encoding': 'br, gzip', 'x-forwarded-for': clientAddress(n) }
            return { ...request, headers }
          },
        },
      ],
    })
  }
  return autocannon({
    url: `${url}/rest/v1/waitlist`,
    connections,
    duration: DURATION_S,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          n++
          const headers = { 'content-type': 'application/json', 'x-forwarded-for': clientAddress(n) }
          return { ...request, headers, body: JSON.stringify({ email: `${tag}-${n}@bench.example` }) }
        },
      },
    ],
  })
}

ensureBuild()
const targets: Target[] = [
  { name: 'bare route (ceiling)', entry: join(root, 'bench', 'bare-server.mjs'), env: {}, cleanup: async () => undefined },
]
const variants = [
  { suffix: '', limits: false, counted: true },
  { suffix: ', views not counted', limits: false, counted: false },
  { suffix: ', limits on', limits: true, counted: true },
]
for (const { suffix, limits, counted } of variants) {
  const sqlite = tempSqlitePath()
  targets.push({
    name: `SQLite${suffix}`,
    limits,
    pages: { counted },
    entry: join(root, 'dist', 'server', 'main.js'),
    env: { SQLITE_PATH: sqlite.path },
    count: async () => {
      const store = await createStore(loadConfig({ SQLITE_PATH: sqlite.path }), { warn: () => undefined })
      const n = await store.count()
      await store.close()
      return n
    },
    cleanup: async () => sqlite.cleanup(),
  })
}
if (TEST_DATABASE_URL) {
  for (const { suffix, limits, counted } of variants) {
    const schema = await createTestSchema()
    targets.push({
      name: `PostgreSQL${suffix}`,
      limits,
      pages: { counted },
      entry: join(root, 'dist', 'server', 'main.js'),
      env: { DATABASE_URL: schema.url },
      count: async () => Number((await schema.query<{ n: string }>('SELECT count(*) AS n FROM waitlist')).rows[0]?.n),
      cleanup: schema.cleanup,
    })
  }
} else {
  console.log('PostgreSQL skipped: TEST_DATABASE_URL is not set')
}

const only = process.env.BENCH_TARGETS?.split(',').map((word) => word.trim().toLowerCase())
const chosen = targets.filter((t, i) => i === 0 || !only || only.some((word) => t.name.toLowerCase().includes(word)))
const rows: Row[] = []
const warmed = new Map<string, number>()
const mismatches: string[] = []
for (const target of chosen) {
  const { url, child } = await start(target)
  try {
    const warmup = await load(url, 'sign-ups', 10, `warmup-${target.name}`.replace(/\W/g, '')) // JIT, pool and page cache warm
    warmed.set(target.name, warmup['2xx'])
    const loads: Load[] = target.pages ? ['sign-ups', 'GET /'] : ['sign-ups']
    for (const kind of loads) {
      if (kind === 'GET /') await load(url, kind, 10, 'warmup') // the page's compression and counting warm too
      for (const connections of CONNECTIONS) {
        const serverBefore = cpuSeconds(child.pid)
        const loadBefore = process.cpuUsage()
        const result = await load(url, kind, connections, `c${connections}`)
        const loadCpu = process.cpuUsage(loadBefore)
        const serverAfter = cpuSeconds(child.pid)
        const answered = result['2xx']
        const perAnswer = (seconds: number) => (answered > 0 ? (seconds * 1e6) / answered : Number.NaN)
        rows.push({
          target: target.name,
          load: kind,
          connections,
          perSecond: answered / DURATION_S,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.timeouts + result.non2xx,
          created: kind === 'sign-ups' ? answered : 0,
          serverUs: serverBefore === undefined || serverAfter === undefined ? undefined : perAnswer(serverAfter - serverBefore),
          loadUs: perAnswer((loadCpu.user + loadCpu.system) / 1e6),
        })
        console.error(`${target.name}, ${kind} × ${connections}: ${Math.round(answered / DURATION_S)}/s, p99 ${result.latency.p99} ms`)
      }
    }
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
  if (target.count) {
    const stored = await target.count()
    const answered = rows.filter((r) => r.target === target.name).reduce((sum, r) => sum + r.created, warmed.get(target.name) ?? 0)
    // Requests still in flight when a run stops are stored but their answers are not counted:
    // at most one per connection per run.
    const inFlight = 10 + CONNECTIONS.reduce((sum, c) => sum + c, 0)
    console.error(`${target.name}: ${stored} rows stored for ${answered} answers of 201 (+ at most ${inFlight} in flight at the cut-offs)`)
    if (stored < answered || stored > answered + inFlight) mismatches.push(`${target.name}: ${stored} rows for ${answered} answers of 201`)
  }
  await target.cleanup()
}

const ceiling = new Map(rows.filter((r) => r.target === targets[0]?.name).map((r) => [r.connections, r.perSecond]))
const cell = (text: string | number, width: number) => String(text).padStart(width)
console.log(`\nnpm run bench: ${DURATION_S} s per row, unique addresses, ${new Date().toISOString().slice(0, 10)}\n`)
console.log(
  '| target                          | load     | conns | answers/s | p50 ms | p99 ms | errors | of ceiling | server CPU µs/answer | load CPU µs/answer |',
)
console.log(
  '|---------------------------------|----------|------:|----------:|-------:|-------:|-------:|-----------:|---------------------:|-------------------:|',
)
const micros = (us: number | undefined) => (us === undefined || Number.isNaN(us) ? '' : us.toFixed(1))
for (const r of rows) {
  const ratio = r.load === 'sign-ups' ? `${((r.perSecond / (ceiling.get(r.connections) ?? Number.NaN)) * 100).toFixed(0)} %` : ''
  console.log(
    `| ${r.target.padEnd(31)} | ${r.load.padEnd(8)} | ${cell(r.connections, 5)} | ${cell(Math.round(r.perSecond), 9)} | ${cell(r.p50, 6)} | ${cell(r.p99, 6)} | ${cell(r.errors, 6)} | ${cell(ratio, 10)} | ${cell(micros(r.serverUs), 20)} | ${cell(micros(r.loadUs), 18)} |`,
  )
}
// Counting the page's views may cost either load at most 10 % (issue 19): each store's figures
// with counting on beside those with it off.
const comparisons = rows.filter((r) => !r.target.includes(',') && r.target !== targets[0]?.name)
if (comparisons.length > 0) console.log('\nviews counted against not counted (same store, load and connections):\n')
for (const on of comparisons) {
  const off = rows.find((r) => r.target === `${on.target}, views not counted` && r.load === on.load && r.connections === on.connections)
  if (!off) continue
  const change = (on.perSecond / off.perSecond - 1) * 100
  console.log(
    `  ${`${on.target}, ${on.load} × ${on.connections}`.padEnd(32)} ${cell(Math.round(on.perSecond), 7)}/s against ${cell(Math.round(off.perSecond), 7)}/s: ${change >= 0 ? '+' : ''}${change.toFixed(1)} %${change < -10 ? '  (more than 10 % lower)' : ''}`,
  )
}
rmSync(MAIL_DIR, { recursive: true, force: true })
if (mismatches.length > 0) {
  console.error(`\nEvery 201 must be a stored row: ${mismatches.join('; ')}`)
  process.exitCode = 1
}
