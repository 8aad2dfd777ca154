// Tallies in SQLite: one writer at a time, so each trigger adds to its tally row at once
// (db/sqlite/014_one_truth.sql); reading is reading the rows.
import type Database from 'better-sqlite3'
import type { Run } from '../shared/sqlite.js'
import type { Tallies, TallyKind, TallyRow } from './shared.js'

export type SqliteTallies = Tallies & { readNow(kinds: readonly TallyKind[], key?: string): TallyRow[] }

export function createSqliteTallies(db: Database.Database, run: Run): SqliteTallies {
  const read = db.prepare(
    `SELECT kind, key, field, n FROM tallies WHERE kind IN (SELECT value FROM json_each(@kinds)) AND (@key IS NULL OR key = @key) AND n <> 0`,
  )
  const readNow = (kinds: readonly TallyKind[], key?: string) => read.all({ kinds: JSON.stringify(kinds), key: key ?? null }) as TallyRow[]
  return { readNow, read: (kinds, key) => run(() => readNow(kinds, key)) }
}
