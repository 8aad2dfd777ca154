// The migration runner of both stores: db/<dialect>/*.sql applied once each, in name order, each
// recorded in schema_migrations. The dialect supplies how to run SQL; the order and the record
// are the same for both, so the two cannot drift.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrationsDir } from '../../paths.js'

export interface MigrationTarget {
  /** The versions already applied. */
  applied(): Promise<ReadonlySet<string>> | ReadonlySet<string>
  /** Runs one file's SQL and records its version, in one transaction. */
  apply(version: string, sql: string): Promise<void> | void
}

/** Applies every migration of the dialect that the target has not applied yet; answers them. */
export async function migrate(dialect: 'sqlite' | 'postgres', target: MigrationTarget): Promise<string[]> {
  const dir = migrationsDir(dialect)
  const applied = await target.applied()
  const pending = readdirSync(dir)
    .filter((file) => file.endsWith('.sql') && !applied.has(file))
    .sort()
  for (const file of pending) await target.apply(file, readFileSync(join(dir, file), 'utf8'))
  return pending
}
