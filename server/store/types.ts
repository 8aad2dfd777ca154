// The waitlist's storage, as the rest of the server sees it. The two implementations (sqlite.ts,
// postgres.ts) import this file and nothing above the store; create-store.ts picks one.
import type { SignUp, Stats } from '../../contract/admin-api.js'
import type { WaitlistRow } from '../../contract/waitlist.js'
import type { WindowCounters } from './counters.js'

export type { SignUp, Stats, WaitlistRow }

export interface ListOptions {
  /** Keyset pagination: rows with an id greater than this. */
  afterId?: number
  limit: number
  /** Only addresses containing this text, in any letter case. */
  search?: string
  /** Only sign-ups at or after this moment (ISO 8601). */
  since?: string
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
  /** Writes what it has accepted, then lets go of the database. */
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
