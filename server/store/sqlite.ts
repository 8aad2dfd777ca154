import Database from 'better-sqlite3'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { migrationsDir } from '../paths.js'
import { StartupError } from '../startup-error.js'
import { createMemoryCounters } from './counters.js'
import { type ListOptions, type SignUp, StoreUnavailableError, TOP_SOURCES, type WaitlistRow, type WaitlistStore } from './store.js'

const COLUMNS = 'id, email, created_at, utm_source, utm_medium, utm_campaign, referrer'

/** The file cannot be made or opened: which file, why, and the variable that chooses another. */
function cannotOpen(path: string, error: unknown): StartupError {
  const reason = error instanceof Error ? error.message.replace(/^[A-Z]+: /, '') : String(error)
  return new StartupError(
    `Cannot open the SQLite database ${resolve(path)}: ${reason}.\nSet SQLITE_PATH to a file in a folder this server may create and write (default data/waitlist.db).`,
    { cause: error },
  )
}

export function createSqliteStore(path: string): WaitlistStore {
  let db: Database.Database
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
    db = new Database(path)
    db.pragma('journal_mode = WAL')
  } catch (error) {
    throw cannotOpen(path, error)
  }
  // better-sqlite3 defaults to NORMAL under WAL, which can lose acknowledged rows on power loss:
  // FULL syncs the WAL on every commit, so a 201 survives a crash (PROTOCOL.md, Storage).
  db.pragma('synchronous = FULL')
  if (path !== ':memory:' && (db.pragma('journal_mode', { simple: true }) !== 'wal' || db.pragma('synchronous', { simple: true }) !== 2)) {
    db.close()
    throw new Error(`SQLite at ${path}: cannot enable WAL with synchronous=FULL; acknowledged sign-ups could be lost`)
  }
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  migrate(db)

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

  // Group commit: the sign-ups that arrive in one turn of the event loop are written in one
  // transaction, one fsync for all of them, and each is answered only after that commit.
  // (One transaction per sign-up spends nearly all its time in fsync: 3,000/s on this machine.)
  type Pending = { row: WaitlistRow; resolve: (result: { inserted: boolean }) => void; reject: (error: unknown) => void }
  let queue: Pending[] = []
  const insertBatch = db.transaction((rows: WaitlistRow[]) =>
    rows.map((row): boolean | unknown => {
      try {
        return insert.run(row).changes === 1
      } catch (error) {
        // One bad row (it cannot pass the route's checks, but the table checks too) fails alone.
        if ((error as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) return error
        throw error
      }
    }),
  )
  function flush(): void {
    const batch = queue
    queue = []
    if (batch.length === 0) return
    try {
      const results = insertBatch(batch.map((pending) => pending.row))
      batch.forEach((pending, i) => {
        const result = results[i]
        if (typeof result === 'boolean') pending.resolve({ inserted: result })
        else pending.reject(result)
      })
    } catch (error) {
      const failure = toStoreError(error)
      for (const pending of batch) pending.reject(failure)
    }
  }

  function run<T>(work: () => T): Promise<T> {
    if (closed) return Promise.reject(new StoreUnavailableError('the SQLite store is closed'))
    try {
      return Promise.resolve(work())
    } catch (error) {
      return Promise.reject(toStoreError(error))
    }
  }

  return {
    add: (row: WaitlistRow) =>
      new Promise((resolve, reject) => {
        if (closed) return reject(new StoreUnavailableError('the SQLite store is closed'))
        if (queue.push({ row, resolve, reject }) === 1) setImmediate(flush)
      }),
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
      flush() // sign-ups already accepted are written before the file is closed
      closed = true
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

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)')
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as string[])
  const dir = migrationsDir('sqlite')
  const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort()
  for (const file of files) {
    if (applied.has(file)) continue
    const sql = readFileSync(join(dir, file), 'utf8')
    db.transaction(() => {
      db.exec(sql)
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(file, new Date().toISOString())
    }).immediate()
  }
}
