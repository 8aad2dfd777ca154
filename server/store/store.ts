import type { Config } from '../config.js'
import type { WaitlistRow } from '../waitlist-row.js'
import type { WindowCounters } from './counters.js'

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
  /** Only addresses containing this text, in any letter case. */
  search?: string
  /** Only sign-ups at or after this moment (ISO 8601). */
  since?: string
}

export interface Stats {
  total: number
  /** Sign-ups per UTC day, oldest first; days without any are left out. */
  perDay: { day: string; count: number }[]
  /** Where sign-ups came from (utm_source, else the referring host, else null), most first. */
  perSource: { source: string | null; count: number }[]
}

/** How many sources `stats` lists. */
export const TOP_SOURCES = 20

/** The waitlist's storage. Every method rejects with StoreUnavailableError when the store is down. */
export interface WaitlistStore {
  /** Resolves once the row is durably committed; a duplicate (any letter case) stores nothing. */
  add(row: WaitlistRow): Promise<{ inserted: boolean }>
  count(options?: Pick<ListOptions, 'since'>): Promise<number>
  list(options: ListOptions): Promise<SignUp[]>
  stats(): Promise<Stats>
  /** Deletes the address (any letter case) for good; false when it was not listed. */
  remove(email: string): Promise<boolean>
  /** Rejects unless the store answers now. */
  ping(): Promise<void>
  /** The limits' counters: in this process (SQLite), or shared by every instance (PostgreSQL). */
  readonly counters: WindowCounters
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
