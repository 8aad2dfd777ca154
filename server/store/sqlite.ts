import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { StartupError } from '../startup-error.js'
import { createMemoryCounters } from './counters.js'
import { createGroupCommit, type Outcome } from './group-commit.js'
import { migrate } from './migrate.js'
import { type ListOptions, type SignUp, StoreUnavailableError, TOP_SOURCES, type WaitlistRow, type WaitlistStore } from './types.js'

const COLUMNS = 'id, email, created_at, utm_source, utm_medium, utm_campaign, referrer'

/** The file cannot be made or opened: which file, why, and the variable that chooses another. */
function cannotOpen(path: string, error: unknown): StartupError {
  const reason = error instanceof Error ? error.message.replace(/^[A-Z]+: /, '') : String(error)
  return new StartupError(
    `Cannot open the SQLite database ${resolve(path)}: ${reason}.\nSet SQLITE_PATH to a file in a folder this server may create and write (default data/waitlist.db).`,
    { cause: error },
  )
}

function open(path: string): Database.Database {
  let db: Database.Database
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
    db = new Database(path)
    db.pragma('journal_mode = WAL')
  } catch (error) {
    throw cannotOpen(path, error)
  }
  // better-sqlite3 defaults to NORMAL under WAL, which can lose acknowledged rows on power loss:
  // FULL syncs the WAL on every commit, so a 201 survives a crash (docs/protocol.md, "Storage").
  db.pragma('synchronous = FULL')
  if (path !== ':memory:' && (db.pragma('journal_mode', { simple: true }) !== 'wal' || db.pragma('synchronous', { simple: true }) !== 2)) {
    db.close()
    throw new Error(`SQLite at ${path}: cannot enable WAL with synchronous=FULL; acknowledged sign-ups could be lost`)
  }
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  return db
}

export async function createSqliteStore(path: string): Promise<WaitlistStore> {
  const db = open(path)
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)')
  await migrate('sqlite', {
    applied: () => new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as string[]),
    apply: (version, sql) =>
      db
        .transaction(() => {
          db.exec(sql)
          db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString())
        })
        .immediate(),
  })

  const insert = db.prepare(
    `INSERT INTO waitlist (email, utm_source, utm_medium, utm_campaign, referrer)
     VALUES (@email, @utm_source, @utm_medium, @utm_campaign, @referrer)
     ON CONFLICT DO NOTHING`,
  )
  const countSince = db.prepare('SELECT count(*) AS n FROM waitlist WHERE created_at >= @since').pluck()
  // One statement for every filter: an absent filter is NULL and matches everything.
  const listAfter = db.prepare(
    `SELECT ${COLUMNS} FROM waitlist
     WHERE id > @afterId
       AND (@search IS NULL OR instr(lower(email), lower(@search)) > 0)
       AND created_at >= @since
     ORDER BY id LIMIT @limit`,
  )
  const perDay = db.prepare('SELECT substr(created_at, 1, 10) AS day, count(*) AS count FROM waitlist GROUP BY day ORDER BY day')
  const perSource = db.prepare(
    `SELECT source, count FROM (SELECT coalesce(utm_source, referrer) AS source, count(*) AS count FROM waitlist GROUP BY 1) AS s
     ORDER BY count DESC, source IS NULL, source LIMIT ${TOP_SOURCES}`,
  )
  const removeEmail = db.prepare('DELETE FROM waitlist WHERE lower(email) = lower(?)')
  const ping = db.prepare('SELECT 1').pluck()
  let closed = false

  // Group commit: one transaction, one fsync, for the sign-ups of one event-loop turn. (One
  // transaction per sign-up spends nearly all its time in fsync: 3,000/s on this machine.)
  const insertBatch = db.transaction((rows: readonly WaitlistRow[]) =>
    rows.map((row): Outcome<{ inserted: boolean }> => {
      try {
        return { ok: true, value: { inserted: insert.run(row).changes === 1 } }
      } catch (error) {
        // One bad row (it cannot pass the route's checks, but the table checks too) fails alone.
        if ((error as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) return { ok: false, error }
        throw error
      }
    }),
  )
  const adds = createGroupCommit<WaitlistRow, { inserted: boolean }>((rows) => {
    try {
      return insertBatch(rows)
    } catch (error) {
      throw toStoreError(error)
    }
  })

  function run<T>(work: () => T): Promise<T> {
    if (closed) return Promise.reject(new StoreUnavailableError('the SQLite store is closed'))
    try {
      return Promise.resolve(work())
    } catch (error) {
      return Promise.reject(toStoreError(error))
    }
  }

  return {
    add: (row) => (closed ? Promise.reject(new StoreUnavailableError('the SQLite store is closed')) : adds.submit(row)),
    count: ({ since }: Pick<ListOptions, 'since'> = {}) => run(() => Number(countSince.get({ since: toSqliteTime(since) }))),
    list: ({ afterId = 0, limit, search, since }: ListOptions) =>
      run(() => listAfter.all({ afterId, limit, search: search || null, since: toSqliteTime(since) }) as SignUp[]),
    stats: () =>
      run(() => {
        const days = perDay.all() as { day: string; count: number }[]
        return {
          total: days.reduce((sum, d) => sum + d.count, 0),
          perDay: days,
          perSource: perSource.all() as { source: string | null; count: number }[],
        }
      }),
    remove: (email: string) => run(() => removeEmail.run(email).changes > 0),
    ping: () => run(() => void ping.get()),
    // One process per SQLite file: counting in memory is counting for the whole deployment.
    counters: createMemoryCounters(),
    close: async () => {
      if (closed) return
      closed = true
      await adds.drain() // sign-ups already accepted are written before the file is closed
      db.close()
    },
  }
}

/** created_at is stored as ISO 8601 text in UTC, so moments compare as text once in that form. */
function toSqliteTime(since: string | undefined): string {
  return since ? new Date(since).toISOString() : ''
}

/** Busy, locked, full or I/O errors are retryable; anything else is a bug and stays an error. */
function toStoreError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY)/.test(code)) {
    return new StoreUnavailableError(`SQLite: ${code}`, { cause: error })
  }
  return error
}
