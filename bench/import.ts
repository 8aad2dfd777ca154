// `npm run -s bench:import [-- --store sqlite|postgres] [--rows N]`: a club's list of 100,000 rows
// (IMPORT_ROWS or --rows; a quarter with breeds, 2 % bad lines, 5 % signed up already, 1 %
// suppressed) imported through the built server's admin API, on SQLite and (with TEST_DATABASE_URL)
// PostgreSQL. Says how long it took from the upload to done, how far the server's resident memory
// grew, a sign-up's p99 idle and while the import runs (four at a time, without pause), and the
// longest the server's event loop was held meanwhile (bench/loop-probe.mjs, in its process).
// Targets (issue 51): 60 s on SQLite, 90 s on PostgreSQL, 150 MB, twice idle, 50 ms.
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startProbedServer } from './probed-server'
import type { ImportStatus } from '../contract/imports'
import { ensureBuild } from '../scripts/ensure-build.mjs'
import { loadConfig } from '../server/config'
import { createSuppressions } from '../server/mail/suppression'
import { createStore } from '../server/store/index'
import { createTestSchema, TEST_DATABASE_URL } from '../tests/support/postgres'
import { row } from '../tests/support/rows'
import { tempSqlitePath } from '../tests/support/server'

const TOKEN = 'import-benchmark-admin-token-0123456789'
const BREEDS = [
  'Labrador Retriever',
  'Deutscher Schäferhund',
  'Golden Retriever; Whippet',
  'Owczarek niemiecki',
  'Mops | Beagle',
  'Our own cross',
]
const COUNTRIES = ['DE', 'Polska', 'France', 'GB', 'it', '']
const LANGUAGES = ['de', 'pl', 'fr', 'en', 'it', 'es']

const { values } = parseArgs({ options: { store: { type: 'string' }, rows: { type: 'string' } } })
const ROWS = Number(values.rows ?? process.env.IMPORT_ROWS ?? 100_000)
const log = (line: string) => process.stderr.write(`${line}\n`)

/** The list, as its rows fall: bad every 50th, signed up already every 20th, suppressed every 100th, breeds every 4th. */
function clubFile(): { file: Buffer; existing: string[]; suppressed: string[] } {
  const lines = ['email,language,country,role,breeds,side']
  const existing: string[] = []
  const suppressed: string[] = []
  for (let i = 1; i <= ROWS; i++) {
    let email = `member${i}@club${i % 97}.example`
    let country = COUNTRIES[i % COUNTRIES.length] ?? ''
    if (i % 50 === 0) {
      if (i % 100 === 0) email = `not an address ${i}`
      else country = 'Atlantis'
    } else if (i % 20 === 3) existing.push(email)
    else if (i % 100 === 7) suppressed.push(email)
    const breeds = i % 4 === 1 ? (BREEDS[(i >> 2) % BREEDS.length] ?? '') : ''
    const role = i % 3 === 0 ? 'breeder' : 'owner'
    lines.push(
      [
        email,
        LANGUAGES[i % LANGUAGES.length],
        country,
        role,
        breeds.includes(',') ? `"${breeds}"` : breeds,
        breeds && role === 'breeder' ? 'dam' : '',
      ].join(','),
    )
  }
  return { file: Buffer.from(`${lines.join('\n')}\n`), existing, suppressed }
}

async function run(kind: 'sqlite' | 'postgres') {
  const db = kind === 'postgres' ? await createTestSchema() : undefined
  const sqlite = kind === 'sqlite' ? tempSqlitePath() : undefined
  const env: Record<string, string> = db ? { DATABASE_URL: db.url } : { SQLITE_PATH: sqlite?.path ?? '' }
  const mailDir = mkdtempSync(join(tmpdir(), 'kennect-import-bench-mail-'))
  const { file, existing, suppressed } = clubFile()
  try {
    // The store as the list finds it: some of its people signed up already, some suppressed.
    const store = await createStore(loadConfig(env), { warn: () => undefined }, { readerThread: false })
    for (let i = 0; i < existing.length; i += 500) await Promise.all(existing.slice(i, i + 500).map((email) => store.add(row(email))))
    const hash = createSuppressions(store.suppressions).hash
    for (const email of suppressed) await store.suppressions.add(email, await hash(email))
    await store.close()
    log(
      `${kind}: ${ROWS.toLocaleString('en')} rows (${(file.length / 1e6).toFixed(1)} MB), ${existing.length} signed up, ${suppressed.length} suppressed`,
    )

    const { server, base, probe, ready, signUps } = await startProbedServer(env, TOKEN, mailDir)
    try {
      await ready()
      await signUps() // warm
      await probe('loop-max')
      const idle = await signUps()
      // What the machine itself holds the loop for, sign-ups alone (other work on its cores shows here).
      const loopIdle = await probe('loop-max')
      const rssBefore = await probe('rss')

      const form = new FormData()
      form.append('mode', 'subscribe')
      form.append('basis', 'The club’s members who ticked news about Kennect (benchmark)')
      form.append('file', new Blob([new Uint8Array(file)], { type: 'text/csv' }), 'club.csv')
      const started = performance.now()
      const answer = await fetch(`${base}/admin/api/imports`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: form })
      if (answer.status !== 202) throw new Error(`import: ${answer.status} ${await answer.text()}`)
      const { id } = (await answer.json()) as { id: number }
      let status: ImportStatus | undefined
      let rssMax = rssBefore
      const watching = (async () => {
        for (;;) {
          status = (await (
            await fetch(`${base}/admin/api/imports/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } })
          ).json()) as ImportStatus
          rssMax = Math.max(rssMax, await probe('rss'))
          if (status.status !== 'running') return performance.now() - started
          await new Promise((resolve) => setTimeout(resolve, 250))
        }
      })()
      let ended = false
      const busy = signUps(() => ended)
      const seconds = (await watching) / 1000
      ended = true
      const during = await busy
      const loop = await probe('loop-max')
      server.kill('SIGTERM')
      await new Promise((resolve) => server.once('exit', resolve))
      return {
        kind,
        seconds,
        status,
        rssMb: (rssMax - rssBefore) / 1e6,
        rssBeforeMb: rssBefore / 1e6,
        idle: idle.p99,
        during,
        loop,
        loopIdle,
      }
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL')
    }
  } finally {
    rmSync(mailDir, { recursive: true, force: true })
    sqlite?.cleanup()
    await db?.cleanup()
  }
}

async function main() {
  ensureBuild()
  const kinds = values.store
    ? [values.store as 'sqlite' | 'postgres']
    : TEST_DATABASE_URL
      ? (['sqlite', 'postgres'] as const)
      : (['sqlite'] as const)
  const cpu = cpus()
  const load = loadavg()
  const results = []
  for (const kind of kinds) results.push(await run(kind))
  const lines = [
    `bench:import, ${ROWS.toLocaleString('en')} rows, ${cpu.length} cores (${cpu[0]?.model ?? 'unknown'}), Node ${process.versions.node}; load average before: ${load.map((l) => l.toFixed(2)).join(' / ')}`,
    '',
    '| store | upload to done s | rows/s | added / skipped / failed | RSS growth MB | sign-up p99 idle ms | during ms (sign-ups) | loop held ms idle / during |',
    '| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.kind} | ${r.seconds.toFixed(1)} | ${Math.round(ROWS / r.seconds).toLocaleString('en')} | ${r.status?.added} / ${r.status?.skipped} / ${r.status?.failed} | ${r.rssMb.toFixed(0)} (from ${r.rssBeforeMb.toFixed(0)}) | ${r.idle.toFixed(1)} | ${r.during.p99.toFixed(1)} (${r.during.count}) | ${r.loopIdle.toFixed(1)} / ${r.loop.toFixed(1)} |`,
    ),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  for (const r of results)
    if (r.status?.status !== 'done' || r.status.rows !== ROWS)
      throw new Error(`${r.kind}: the import ended ${r.status?.status} with ${r.status?.rows} rows`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
