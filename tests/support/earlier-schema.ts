// A database as an earlier version left it, for a test of the migration after it: a fresh SQLite
// file or PostgreSQL schema with the store's own migrations applied before `before` (a file name's
// prefix, e.g. '021'), and recorded as applied, then the rows that version would hold. A server
// started on it (its `env`) applies the rest, as an upgrade does.
import Database from 'better-sqlite3'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { migrationsDir } from '../../server/paths'
import { createTestSchema } from './postgres'
import { tempSqlitePath } from './server'
import type { StoreKind } from './stores'

/** Runs a statement on the earlier database: SQLite's `?` placeholders, PostgreSQL's `$1`. */
export type EarlierQuery = (sql: string, values?: unknown[]) => Promise<Record<string, unknown>[]>

export async function earlierDatabase(
  kind: StoreKind,
  before: string,
  seed: (query: EarlierQuery) => Promise<void>,
): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  const versions = readdirSync(migrationsDir(kind))
    .filter((file) => file.endsWith('.sql') && file < before)
    .sort()
  if (kind === 'sqlite') {
    const file = tempSqlitePath()
    const db = new Database(file.path)
    try {
      db.exec('CREATE TABLE schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)')
      for (const version of versions) {
        db.exec(readFileSync(join(migrationsDir(kind), version), 'utf8'))
        db.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(version, new Date().toISOString())
      }
      await seed(async (sql, values = []) => {
        const statement = db.prepare(sql)
        return statement.reader ? (statement.all(...values) as Record<string, unknown>[]) : (statement.run(...values), [])
      })
    } finally {
      db.close()
    }
    return { env: { SQLITE_PATH: file.path }, cleanup: async () => file.cleanup() }
  }
  const schema = await createTestSchema()
  const client = new pg.Client({ connectionString: schema.url })
  await client.connect()
  try {
    await client.query('CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())')
    for (const version of versions) {
      await client.query(readFileSync(join(migrationsDir(kind), version), 'utf8'))
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version])
    }
    await seed(async (sql, values = []) => (await client.query(sql, values)).rows as Record<string, unknown>[])
  } finally {
    await client.end()
  }
  return { env: { DATABASE_URL: schema.url }, cleanup: schema.cleanup }
}
