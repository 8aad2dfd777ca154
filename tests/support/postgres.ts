// PostgreSQL for the tests: TEST_DATABASE_URL names a database the tests may create schemas in
// (.ci/run makes one). A test server gets a database of its own (templates.ts), dropped when it
// closes; a schema of its own (createTestSchema) is for a test that migrates from an older one.
import { randomBytes } from 'node:crypto'
import pg from 'pg'

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL
export const postgresAvailable = Boolean(TEST_DATABASE_URL)

export interface TestDatabase {
  url: string
  schema: string
  /** Runs SQL as the test role, in the schema. */
  query: <T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values?: unknown[]) => Promise<pg.QueryResult<T>>
  cleanup: () => Promise<void>
}

function requireUrl(): string {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set')
  return TEST_DATABASE_URL
}

/** A new, empty schema; the returned URL puts it first on the search_path. */
export async function createTestSchema(): Promise<TestDatabase> {
  const base = requireUrl()
  const schema = `t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: base })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.end()
  const url = new URL(base)
  url.searchParams.set('options', `-c search_path=${schema}`)
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 })
  return {
    url: url.toString(),
    schema,
    query: (sql, values) => pool.query(sql, values),
    cleanup: async () => {
      await pool.end()
      const client = new pg.Client({ connectionString: base })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await client.end()
    },
  }
}
