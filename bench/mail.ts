// `npm run bench:mail`: how fast the outbox drains into a local SMTP server (smtp-server, in this
// process, counting what it accepts) with MAIL_RATE_PER_SECOND=0, on SQLite and, when
// TEST_DATABASE_URL is set, PostgreSQL. BENCH_MAILS mails (default 5,000) are queued first, by
// sign-ups through the store, then the real server process starts and sends them; the clock runs
// from its first mail to its last. The server's peak memory is read at its exit.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { SMTPServer } from 'smtp-server'
import { ensureBuild, root } from '../scripts/ensure-build.mjs'
import { loadConfig } from '../server/config'
import { createStore } from '../server/store/index'
import { createTestSchema, TEST_DATABASE_URL } from '../tests/support/postgres'
import { freePort } from '../tests/support/ports'
import { tempSqlitePath } from '../tests/support/server'

const MAILS = Number(process.env.BENCH_MAILS ?? 5_000)
const REPORT = join(root, 'bench', 'report-rss.cjs')

interface Result {
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

async function run(name: string, env: Record<string, string>): Promise<Result> {
  // Queue the mails as sign-ups do: each new address gets its confirmation mail in its transaction.
  const store = await createStore(loadConfig(env), { warn: () => undefined })
  for (let i = 0; i < MAILS; i += 1000) {
    await Promise.all(
      Array.from({ length: Math.min(1000, MAILS - i) }, (_, j) =>
        store.add({ email: `mail-${i + j}@bench.example`, utm_source: null, utm_medium: null, utm_campaign: null, referrer: null }),
      ),
    )
  }
  await store.close()

  const smtp = await sink()
  const port = await freePort()
  const child = spawn(process.execPath, ['--require', REPORT, join(root, 'dist', 'server', 'main.js')], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      SMTP_URL: smtp.url,
      MAIL_RATE_PER_SECOND: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const deadline = Date.now() + 300_000
  while (smtp.count() < MAILS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  const lastAt = Date.now()
  child.kill('SIGTERM')
  await once(child, 'exit')
  await smtp.close()
  if (smtp.count() < MAILS) throw new Error(`${name}: ${smtp.count()} of ${MAILS} mails arrived in 300 s`)
  const seconds = (lastAt - smtp.firstAt()) / 1000
  const peakMb = Number(/PEAK_RSS_KB=(\d+)/.exec(stderr)?.[1]) / 1024
  console.error(`${name}: ${MAILS} mails in ${seconds.toFixed(1)} s`)
  return { store: name, mails: MAILS, seconds, perSecond: MAILS / seconds, peakMb }
}

ensureBuild()
const results: Result[] = []
const sqlite = tempSqlitePath()
results.push(await run('SQLite', { SQLITE_PATH: sqlite.path }))
sqlite.cleanup()
if (TEST_DATABASE_URL) {
  const schema = await createTestSchema()
  results.push(await run('PostgreSQL', { DATABASE_URL: schema.url }))
  await schema.cleanup()
} else {
  console.log('PostgreSQL skipped: TEST_DATABASE_URL is not set')
}

console.log(`\nnpm run bench:mail: the outbox to a local SMTP server, rate unlimited, ${new Date().toISOString().slice(0, 10)}\n`)
console.log('| store      |  mails | seconds | mails/s | server peak MB |')
console.log('|------------|-------:|--------:|--------:|---------------:|')
for (const r of results) {
  console.log(
    `| ${r.store.padEnd(10)} | ${String(r.mails).padStart(6)} | ${r.seconds.toFixed(1).padStart(7)} | ${Math.round(r.perSecond).toString().padStart(7)} | ${r.peakMb.toFixed(0).padStart(14)} |`,
  )
}
