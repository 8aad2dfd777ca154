// `npm run bench:mail`: how fast the outbox drains into a local SMTP server (smtp-server, in this
// process, counting what it accepts) with MAIL_RATE_PER_SECOND=0, on SQLite and, when
// TEST_DATABASE_URL is set, PostgreSQL; the server's peak memory is read at its exit.
// - Confirmation mails: BENCH_MAILS (default 5,000) queued by sign-ups through the store, then the
//   real server process starts and sends them; the clock runs from its first mail to its last.
// - Campaigns: for each size of BENCH_CAMPAIGNS (default 10,000 and 100,000), that many confirmed
//   sign-ups, one campaign to all of them sent through the admin API; memory must not grow with
//   the campaign's size.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { SMTPServer } from 'smtp-server'
import { ensureBuild, root } from '../scripts/ensure-build.mjs'
import { loadConfig } from '../server/config'
import { createStore } from '../server/store/index'
import { createTestSchema, TEST_DATABASE_URL } from '../tests/support/postgres'
import { freePort } from '../tests/support/ports'
import { seedSignUps } from '../tests/support/seed'
import { tempSqlitePath } from '../tests/support/server'
import { row } from '../tests/support/rows'

const MAILS = Number(process.env.BENCH_MAILS ?? 5_000)
const CAMPAIGNS = (process.env.BENCH_CAMPAIGNS ?? '10000,100000').split(',').filter(Boolean).map(Number)
const TOKEN = 'bench-admin-token-0123456789'
const REPORT = join(root, 'bench', 'report-rss.cjs')

interface Result {
  what: string
  store: string
  mails: number
  seconds: number
  perSecond: number
  peakMb: number
}

/** An SMTP server that accepts everything and counts messages. */
async function sink(): Promise<{ url: string; count: () => number; close: () => Promise<void>; firstAt: () => number }> {
  let count = 0
  let firstAt = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 100,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined) // the message is read and dropped
      stream.on('end', () => {
        if (count === 0) firstAt = Date.now()
        count++
        callback()
      })
    },
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
  return {
    url: `smtp://127.0.0.1:${port}`,
    count: () => count,
    firstAt: () => firstAt,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** Starts the server on `env` with an SMTP sink; `start` queues the mails; answers when `count` arrived. */
async function drain(
  what: string,
  name: string,
  env: Record<string, string>,
  count: number,
  start: (url: string) => Promise<void>,
): Promise<Result> {
  const smtp = await sink()
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['--require', REPORT, join(root, 'dist', 'server', 'main.js')], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      SMTP_URL: smtp.url,
      MAIL_RATE_PER_SECOND: '0',
      ADMIN_TOKEN: TOKEN,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  for (
    let i = 0;
    i < 200 &&
    !(await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  )
    await new Promise((resolve) => setTimeout(resolve, 50))
  await start(url)
  const deadline = Date.now() + 900_000
  while (smtp.count() < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  const lastAt = Date.now()
  child.kill('SIGTERM')
  await once(child, 'exit')
  await smtp.close()
  if (smtp.count() < count) throw new Error(`${name}: ${smtp.count()} of ${count} mails arrived in 900 s`)
  const seconds = (lastAt - smtp.firstAt()) / 1000
  const peakMb = Number(/PEAK_RSS_KB=(\d+)/.exec(stderr)?.[1]) / 1024
  console.error(`${what} on ${name}: ${count} mails in ${seconds.toFixed(1)} s, peak ${peakMb.toFixed(0)} MB`)
  return { what, store: name, mails: count, seconds, perSecond: count / seconds, peakMb }
}

async function confirmations(name: string, env: Record<string, string>): Promise<Result> {
  // Queued as sign-ups queue them: each new address gets its confirmation mail in its transaction.
  const store = await createStore(loadConfig(env), { warn: () => undefined })
  for (let i = 0; i < MAILS; i += 1000) {
    await Promise.all(Array.from({ length: Math.min(1000, MAILS - i) }, (_, j) => store.add(row(`mail-${i + j}@bench.example`))))
  }
  await store.close()
  return drain('confirmations', name, env, MAILS, async () => undefined)
}

async function campaign(name: string, env: Record<string, string>, size: number): Promise<Result> {
  await seedSignUps(env, { confirmed: size, prefix: `bench-${size}` })
  return drain(`campaign of ${size.toLocaleString('en')}`, name, env, size, async (url) => {
    const answer = await fetch(`${url}/admin/api/campaigns`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ subject: 'Bench', markdown: 'The app is here. [Your page]({{my_page_url}})', segment: {}, send: true }),
    })
    if (answer.status !== 201) throw new Error(`${name}: the campaign was refused (${answer.status})`)
  })
}

/** A fresh database of each kind for each run. */
async function stores(): Promise<{ name: string; env: Record<string, string>; cleanup: () => Promise<void> }[]> {
  const sqlite = tempSqlitePath()
  const list: { name: string; env: Record<string, string>; cleanup: () => Promise<void> }[] = [
    { name: 'SQLite', env: { SQLITE_PATH: sqlite.path }, cleanup: async () => sqlite.cleanup() },
  ]
  if (TEST_DATABASE_URL) {
    const schema = await createTestSchema()
    list.push({ name: 'PostgreSQL', env: { DATABASE_URL: schema.url }, cleanup: schema.cleanup })
  }
  return list
}

ensureBuild()
if (!TEST_DATABASE_URL) console.log('PostgreSQL skipped: TEST_DATABASE_URL is not set')
const results: Result[] = []
for (const { name, env, cleanup } of await stores()) {
  results.push(await confirmations(name, env))
  await cleanup()
}
for (const size of CAMPAIGNS) {
  for (const { name, env, cleanup } of await stores()) {
    results.push(await campaign(name, env, size))
    await cleanup()
  }
}

console.log(`\nnpm run bench:mail: the outbox to a local SMTP server, rate unlimited, ${new Date().toISOString().slice(0, 10)}\n`)
console.log('| store      |  mails | seconds | mails/s | server peak MB |')
console.log('|------------|-------:|--------:|--------:|---------------:|')
for (const r of results) {
  console.log(
    `| ${r.store.padEnd(10)} | ${String(r.mails).padStart(6)} | ${r.seconds.toFixed(1).padStart(7)} | ${Math.round(r.perSecond).toString().padStart(7)} | ${r.peakMb.toFixed(0).padStart(14)} |`,
  )
}
