// The SQLite store (the default): one file, one process. It opens the file, applies db/sqlite/*.sql,
// and puts the features together; each feature's SQL is in its own folder beside PostgreSQL's.
import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { StartupError } from '../startup-error.js'
import { createSqliteApp } from './app/sqlite.js'
import { createSqliteBreeds } from './breeds/sqlite.js'
import { createSqliteCampaigns } from './campaigns/sqlite.js'
import { createSqliteDeliverability } from './deliverability/sqlite.js'
import { sqliteDemandMap } from './demand/sqlite.js'
import { createSqliteGrowth } from './growth/sqlite.js'
import { createMemoryCounters } from './limits/memory.js'
import { createSqliteOutbox } from './outbox/sqlite.js'
import { migrate } from './shared/migrate.js'
import { toStoreError } from './shared/sqlite.js'
import { createSqliteSettings } from './settings/sqlite.js'
import { createSqliteSignups } from './signups/sqlite.js'
import { createSqliteSuppressions } from './suppressions/sqlite.js'
import { createSqliteTallies } from './tallies/sqlite.js'
import { createSqliteTeam } from './team/sqlite.js'
import { StoreUnavailableError, type WaitlistStore } from './types.js'
import { createSqliteVisitors } from './visitors/sqlite.js'
import { createSqliteWebhooks } from './webhooks/sqlite.js'

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

  const ping = db.prepare('SELECT 1').pluck()
  let closed = false
  function run<T>(work: () => T): Promise<T> {
    if (closed) return Promise.reject(new StoreUnavailableError('the SQLite store is closed'))
    try {
      return Promise.resolve(work())
    } catch (error) {
      return Promise.reject(toStoreError(error))
    }
  }
  const growth = createSqliteGrowth(db, run)
  // Nothing per visitor outlives its day, even on a day nobody visits.
  const forgetPastDays = setInterval(() => growth.forgetPastDaysNow(), 60_000).unref()
  const signups = createSqliteSignups(db, run)
  const tallies = createSqliteTallies(db, run)
  const breeds = createSqliteBreeds(db, run, tallies)
  return {
    add: (row) => (closed ? Promise.reject(new StoreUnavailableError('the SQLite store is closed')) : signups.submit(row)),
    count: signups.count,
    list: signups.list,
    stats: signups.stats,
    remove: signups.remove,
    ping: () => run(() => void ping.get()),
    // One process per SQLite file: counting in memory is counting for the whole deployment.
    counters: createMemoryCounters(),
    visitors: createSqliteVisitors(db, run),
    outbox: createSqliteOutbox(db, run, tallies),
    campaigns: createSqliteCampaigns(db, run, growth, breeds, tallies),
    breeds,
    suppressions: createSqliteSuppressions(db, run),
    deliverability: createSqliteDeliverability(db, run, tallies),
    settings: createSqliteSettings(db, run),
    app: createSqliteApp(db, run, tallies),
    growth,
    team: createSqliteTeam(db, run),
    webhooks: createSqliteWebhooks(db, run),
    segments: (breed) => run(() => sqliteDemandMap(db, growth, tallies, breed ?? null)),
    close: async () => {
      if (closed) return
      closed = true
      clearInterval(forgetPastDays)
      await signups.drain() // sign-ups already accepted are written before the file is closed
      db.close()
    },
  }
}
