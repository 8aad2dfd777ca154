import type { Config } from '../config.js'
import type { WaitlistRow } from '../waitlist-row.js'

export type { WaitlistRow }

export interface SignUp extends WaitlistRow {
  id: number
  /** ISO 8601, UTC. */
  created_at: string
}

export interface ListOptions {
  /** Keyset pagination: rows with an id greater than this. */
  afterId?: number
  limit: number
}

/** The waitlist's storage. Every method rejects with StoreUnavailableError when the store is down. */
export interface WaitlistStore {
  /** Resolves once the row is durably committed; a duplicate (any letter case) stores nothing. */
  add(row: WaitlistRow): Promise<{ inserted: boolean }>
  count(): Promise<number>
  list(options: ListOptions): Promise<SignUp[]>
  /** Deletes the address (any letter case) for good; false when it was not listed. */
  remove(email: string): Promise<boolean>
  /** Rejects unless the store answers now. */
  ping(): Promise<void>
  close(): Promise<void>
}

/** Where a store reports trouble it recovers from by itself (pino's signature). */
export interface StoreLogger {
  warn: (details: object, message: string) => void
}

/** The store cannot answer now; the request may be retried (503 PGRST002). */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError'
}

/** PostgreSQL when DATABASE_URL is set, SQLite otherwise; migrated and ready when it resolves. */
export async function createStore(config: Pick<Config, 'DATABASE_URL' | 'SQLITE_PATH'>, log: StoreLogger): Promise<WaitlistStore> {
  if (config.DATABASE_URL) {
    const { createPostgresStore } = await import('./postgres.js')
    return createPostgresStore(config.DATABASE_URL, log)
  }
  const { createSqliteStore } = await import('./sqlite.js')
  return createSqliteStore(config.SQLITE_PATH)
}
