// The store's front door: createStore picks the implementation; the types come from types.ts.
import type { Config } from '../config.js'
import type { StoreLogger, StoreOptions, WaitlistStore } from './types.js'

export * from './types.js'

/** PostgreSQL when DATABASE_URL is set, SQLite otherwise; migrated and ready when it resolves. */
export async function createStore(
  config: Pick<Config, 'DATABASE_URL' | 'SQLITE_PATH'>,
  log: StoreLogger,
  options: StoreOptions = {},
): Promise<WaitlistStore> {
  if (config.DATABASE_URL) {
    const { createPostgresStore } = await import('./postgres.js')
    return createPostgresStore(config.DATABASE_URL, log)
  }
  const { createSqliteStore } = await import('./sqlite.js')
  return createSqliteStore(config.SQLITE_PATH, options)
}
