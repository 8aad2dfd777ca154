// `npm run bench:breeds`: the breed × country meters at scale (issue 31). 1,000,000 sign-ups
// (BREED_ROWS), 600,000 of them with a profile naming one or two of 60 breeds in 20 countries, on
// SQLite and (with TEST_DATABASE_URL) PostgreSQL: how long the store takes to count them (what a
// request pays once a minute), GET /admin/api/breeds at p50/p95 as the team's page asks for it,
// and a visitor's profile save at p50/p95, each through the real server. The rows are written as the
// store writes them, so the meters' triggers keep their counts as they would.
import Database from 'better-sqlite3'
import pg from 'pg'
import { BREED_HEALTH_TESTS } from '../contract/visitor'
import { ensureBuild } from '../scripts/ensure-build.mjs'
import { loadConfig } from '../server/config'
import { createStore } from '../server/store/index'
import { createTestSchema, TEST_DATABASE_URL } from '../tests/support/postgres'
import { startServer, tempSqlitePath } from '../tests/support/server'
import { profileOf } from '../tests/support/profile'
import catalogue from '../contract/breeds.json' with { type: 'json' }

const ROWS = Number(process.env.BREED_ROWS ?? 1_000_000)
const TOKEN = 'breeds-benchmark-token-0123456789'
const COUNTRIES = ['GB', 'DE', 'FR', 'ES', 'IT', 'PL', 'US', 'NL', 'BE', 'AT', 'CH', 'SE', 'NO', 'DK', 'FI', 'IE', 'PT', 'CZ', 'HU', 'RO']
// The breeds with clubs' test lists first, then the catalogue's: 60 in all, the first few far the most named.
const BREEDS = [...new Set([...Object.keys(BREED_HEALTH_TESTS), ...catalogue.breeds.map((b) => b.id)])].slice(0, 60)
const SIDES = ['stud', 'dam', 'both', 'seeker']

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
const ms = (n: number) => `${n.toFixed(1)} ms`

/** A skewed pick: the first breeds named far more often, as registrations are. */
const breedOf = (i: number) => BREEDS[Math.floor(((i * 2654435761) % 1000) ** 2 / 1000 / (1000 / BREEDS.length))] ?? BREEDS[0]

/** The breeds named, with the sign-up's country and whether it counts (80 % confirmed), as the store writes them. */
function rowsOfBreeds(): { id: number; position: number; breed: string; side: string; country: string; counted: number }[] {
  const rows = []
  for (let id = 1; id <= ROWS; id += 1) {
    if (id % 10 >= 6) continue // 60 % have a profile
    const signup = { country: COUNTRIES[id % COUNTRIES.length] ?? 'GB', counted: id % 5 < 4 ? 1 : 0 }
    rows.push({ id, position: 1, breed: breedOf(id) ?? 'pug', side: SIDES[id % 4] ?? 'stud', ...signup })
    if (id % 3 === 0) rows.push({ id, position: 2, breed: breedOf(id * 7 + 1) ?? 'pug', side: SIDES[(id + 1) % 4] ?? 'dam', ...signup })
  }
  return rows
}

async function seedSqlite(path: string) {
  const store = await createStore(loadConfig({ SQLITE_PATH: path }), { warn: () => undefined })
  await store.close()
  const db = new Database(path)
  db.pragma('synchronous = OFF')
  db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
    INSERT INTO waitlist (id, email, created_at, confirmed_at, role, country)
    SELECT i, 'b' || i || '@example.com', '2026-11-01T00:00:00.000Z', CASE WHEN i % 5 < 4 THEN '2026-11-02T00:00:00.000Z' END,
      CASE WHEN i % 10 < 6 THEN (CASE i % 3 WHEN 0 THEN 'owner' ELSE 'breeder' END) END,
      CASE WHEN i % 10 < 6 THEN json_extract('${JSON.stringify(COUNTRIES)}', '$[' || (i % ${COUNTRIES.length}) || ']') END FROM n`)
  const insert = db.prepare(
    `INSERT INTO signup_breeds (signup_id, position, name, name_key, breed, side, country, counted)
     VALUES (@id, @position, @breed, @breed, @breed, @side, @country, @counted)`,
  )
  db.transaction(() => {
    for (const row of rowsOfBreeds()) insert.run(row)
  })()
  db.exec('ANALYZE')
  db.close()
}

async function seedPostgres(url: string) {
  const store = await createStore(loadConfig({ DATABASE_URL: url }), { warn: () => undefined })
  await store.close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(
    `INSERT INTO waitlist (email, created_at, confirmed_at, role, country)
    SELECT 'b' || i || '@example.com', '2026-11-01', CASE WHEN i % 5 < 4 THEN timestamptz '2026-11-02' END,
      CASE WHEN i % 10 < 6 THEN (CASE i % 3 WHEN 0 THEN 'owner' ELSE 'breeder' END) END,
      CASE WHEN i % 10 < 6 THEN ($1::text[])[1 + i % ${COUNTRIES.length}] END
    FROM generate_series(1, ${ROWS}) AS i`,
    [COUNTRIES],
  )
  const rows = rowsOfBreeds()
  // Bulk loading: the counts' trigger is off while the rows go in, and the counts are made once after
  // (the same table the trigger keeps; one row at a time it took over 6 minutes).
  await client.query('ALTER TABLE signup_breeds DISABLE TRIGGER signup_breeds_count')
  for (let i = 0; i < rows.length; i += 50_000) {
    const chunk = rows.slice(i, i + 50_000)
    await client.query(
      `INSERT INTO signup_breeds (signup_id, position, name, name_key, breed, side, country, counted)
       SELECT r.id, r.position, r.breed, r.breed, r.breed, r.side, r.country, r.counted = 1
       FROM jsonb_to_recordset($1) AS r (id bigint, position int, breed text, side text, country text, counted int)`,
      [JSON.stringify(chunk)],
    )
  }
  await client.query(`INSERT INTO breed_counts (breed, country, studs, dams, seekers, profiles)
    SELECT breed, country, count(*) FILTER (WHERE side IN ('stud', 'both')), count(*) FILTER (WHERE side IN ('dam', 'both')),
      count(*) FILTER (WHERE side = 'seeker'), count(*)
    FROM signup_breeds WHERE counted AND breed IS NOT NULL GROUP BY breed, country`)
  await client.query('ALTER TABLE signup_breeds ENABLE TRIGGER signup_breeds_count')
  await client.query('VACUUM ANALYZE waitlist')
  await client.query('VACUUM ANALYZE signup_breeds')
  await client.end()
}

async function measure(label: string, env: Record<string, string>) {
  const server = await startServer({ ...env, ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'silent' }, env.DATABASE_URL ? 'postgres' : 'sqlite')
  try {
    // What counting costs the store (each time the minute's count is redone).
    const counting: number[] = []
    for (let i = 0; i < 7; i += 1) {
      const started = performance.now()
      await server.app.store.breeds.counts()
      counting.push(performance.now() - started)
    }
    counting.sort((a, b) => a - b)
    // The admin API as the team's page asks for it, 200 times (the minute's count is redone once, at the start).
    server.app.breedMeters.changed()
    const answers: number[] = []
    for (let i = 0; i < 200; i += 1) {
      const started = performance.now()
      const answer = await fetch(`${server.url}/admin/api/breeds`, { headers: { authorization: `Bearer ${TOKEN}` } })
      await answer.arrayBuffer()
      if (answer.status !== 200) throw new Error(`GET /admin/api/breeds answered ${answer.status}`)
      answers.push(performance.now() - started)
    }
    answers.sort((a, b) => a - b)
    // A visitor's profile save, 200 of them, on sign-ups spread over the table.
    const saves: number[] = []
    for (let i = 0; i < 200; i += 1) {
      const id = 1 + ((i * 4973) % ROWS)
      const profile = profileOf({
        role: 'breeder',
        breeds: [{ name: 'Labrador', side: 'dam', tests: ['hips'] }, 'Pug'],
        country: 'FR',
        club: 'SCC',
        litters: 1,
      })
      const started = performance.now()
      await server.app.store.visitors.saveProfile(id, profile)
      saves.push(performance.now() - started)
    }
    saves.sort((a, b) => a - b)
    console.log(
      `| ${label} | ${ms(quantile(counting, 0.5))} | ${ms(quantile(answers, 0.5))} | ${ms(quantile(answers, 0.95))} | ${ms(quantile(answers, 1))} | ${ms(quantile(saves, 0.5))} | ${ms(quantile(saves, 0.95))} |`,
    )
  } finally {
    await server.close()
  }
}

await ensureBuild()
console.log(`${ROWS.toLocaleString('en')} sign-ups, ${rowsOfBreeds().length.toLocaleString('en')} breeds named\n`)
console.log('| store | counting (median of 7) | GET /admin/api/breeds p50 | p95 | max | profile save p50 | p95 |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
const sqlite = tempSqlitePath()
try {
  await seedSqlite(sqlite.path)
  await measure('SQLite', { SQLITE_PATH: sqlite.path })
} finally {
  sqlite.cleanup()
}
if (TEST_DATABASE_URL) {
  const schema = await createTestSchema()
  try {
    await seedPostgres(schema.url)
    await measure('PostgreSQL 15', { DATABASE_URL: schema.url })
  } finally {
    await schema.cleanup()
  }
}
