// `npm run bench:export`: 1,000,000 sign-ups (EXPORT_ROWS) exported through the command line and
// through the admin API, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: time, peak memory of
// the exporting process, and a check that every row arrived.
import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createReadStream, statSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { ensureBuild, root } from '../scripts/ensure-build.mjs'
import { loadConfig } from '../server/config'
import { createStore } from '../server/store/index'
import { createTestSchema, TEST_DATABASE_URL } from '../tests/support/postgres'
import { spawnServer } from '../tests/support/process'
import { tempSqlitePath } from '../tests/support/server'

const ROWS = Number(process.env.EXPORT_ROWS ?? 1_000_000)
const REPORT = join(root, 'bench', 'report-rss.cjs')
const TOKEN = 'export-benchmark-token-0123456789'

async function countLines(file: string): Promise<number> {
  let lines = 0
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) lines += line === undefined ? 0 : 1
  return lines
}

/** Runs a node process to its end; returns seconds taken and its peak memory in MB. */
async function timed(args: string[], env: Record<string, string>): Promise<{ seconds: number; peakMb: number }> {
  const started = process.hrtime.bigint()
  const child = spawn(process.execPath, ['--require', REPORT, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const [code] = await once(child, 'exit')
  if (code !== 0) throw new Error(`exit ${code}: ${stderr}`)
  const kb = Number(/PEAK_RSS_KB=(\d+)/.exec(stderr)?.[1])
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, peakMb: kb / 1024 }
}

async function fill(kind: 'sqlite' | 'postgres', env: Record<string, string>, query?: (sql: string) => Promise<unknown>) {
  const store = await createStore(loadConfig(env), { warn: () => undefined }) // creates the table
  await store.close()
  const started = Date.now()
  if (kind === 'sqlite') {
    const db = new Database(env.SQLITE_PATH)
    const insert = db.prepare('INSERT INTO waitlist (email, created_at, utm_source) VALUES (?, ?, ?)')
    db.transaction(() => {
      for (let i = 1; i <= ROWS; i++)
        insert.run(`visitor${i}@example.com`, new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(), i % 3 === 0 ? 'newsletter' : null)
    })()
    db.close()
  } else {
    await query?.(`INSERT INTO waitlist (email, created_at, utm_source)
      SELECT 'visitor' || g || '@example.com', timestamptz '2026-11-01' + g * interval '1 second', CASE WHEN g % 3 = 0 THEN 'newsletter' END
      FROM generate_series(1, ${ROWS}) AS g`)
  }
  return (Date.now() - started) / 1000
}

ensureBuild()
const results: string[] = []
const kinds: ('sqlite' | 'postgres')[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']
if (!TEST_DATABASE_URL) console.log('PostgreSQL skipped: TEST_DATABASE_URL is not set')
for (const kind of kinds) {
  const sqlite = tempSqlitePath()
  const schema = kind === 'postgres' ? await createTestSchema() : undefined
  const env: Record<string, string> = schema ? { DATABASE_URL: schema.url } : { SQLITE_PATH: sqlite.path }
  try {
    const fillSeconds = await fill(kind, env, schema ? (sql) => schema.query(sql) : undefined)
    console.error(`${kind}: ${ROWS.toLocaleString('en')} rows generated in ${fillSeconds.toFixed(1)} s`)
    const out = join(sqlite.path, '..', 'export.csv')
    const cli = await timed([join(root, 'dist', 'server', 'operators', 'cli.js'), 'export', '--out', out], env)
    const lines = await countLines(out)
    const size = statSync(out).size / 1024 / 1024

    const server = await spawnServer({ ...env, ADMIN_TOKEN: TOKEN }, 20_000, ['--require', REPORT])
    const started = process.hrtime.bigint()
    const answer = await fetch(`${server.url}/admin/api/export.csv`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    let apiLines = 0
    // Node's ReadableStream is async-iterable; the DOM typings in use do not say so.
    for await (const chunk of (answer.body ?? []) as unknown as AsyncIterable<Uint8Array>)
      apiLines += (Buffer.from(chunk).toString('latin1').match(/\r\n/g) ?? []).length
    const apiSeconds = Number(process.hrtime.bigint() - started) / 1e9
    await server.stop('SIGTERM')
    const serverPeak = Number(/PEAK_RSS_KB=(\d+)/.exec(server.output())?.[1] ?? Number.NaN) / 1024
    results.push(
      `| ${kind.padEnd(10)} | ${ROWS.toLocaleString('en').padStart(9)} | ${size.toFixed(0).padStart(5)} MB | ${cli.seconds.toFixed(1).padStart(6)} s | ${cli.peakMb.toFixed(0).padStart(6)} MB | ${apiSeconds.toFixed(1).padStart(6)} s | ${Number.isNaN(serverPeak) ? '     -' : `${serverPeak.toFixed(0).padStart(6)} MB`} | ${lines === ROWS + 1 && apiLines === ROWS + 1 ? 'all rows' : `MISSING (${lines}, ${apiLines})`} |`,
    )
  } finally {
    await schema?.cleanup()
    sqlite.cleanup()
  }
}
console.log(`\nnpm run bench:export, ${new Date().toISOString().slice(0, 10)}\n`)
console.log('| store      |      rows |   CSV    | CLI time | CLI peak | API time | server peak | check |')
console.log('|------------|----------:|---------:|---------:|---------:|---------:|------------:|-------|')
for (const line of results) console.log(line)
