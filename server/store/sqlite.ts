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
import { HAND_OFF_TALLIES } from './app/shared.js'
import { demandMapOf } from './demand/shared.js'
import { sqliteCountedDemand } from './demand/sqlite.js'
import { createSqliteGrowth } from './growth/sqlite.js'
import { createSqliteImports } from './imports/sqlite.js'
import { createMemoryCounters } from './limits/memory.js'
import { createSqliteOutbox } from './outbox/sqlite.js'
import { createSqlitePartners } from './partners/sqlite.js'
import { COUNTED_LIVE_BELOW, createFigureCache, FIGURES_MAX_AGE_MS } from './shared/figure-cache.js'
import { migrate } from './shared/migrate.js'
import { createSqliteReader, type SqliteRead } from './shared/sqlite-reader.js'
import { toStoreError } from './shared/sqlite.js'
import { createSqliteSettings } from './settings/sqlite.js'
import { createSqliteSignups } from './signups/sqlite.js'
import { createSqliteSuppressions } from './suppressions/sqlite.js'
import { countryCountsOf, demandOf, everyoneOf, PEOPLE_TALLIES, peopleOf } from './tallies/people.js'
import { createSqliteTallies } from './tallies/sqlite.js'
import { createSqliteTeam } from './team/sqlite.js'
import { type StoreOptions, StoreUnavailableError, type WaitlistStore } from './types.js'
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

export async function createSqliteStore(path: string, options: StoreOptions = {}): Promise<WaitlistStore> {
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
  const tallies = createSqliteTallies(db, run)
  // Reads of a million rows run on a thread of their own (a database in memory has no file to share,
  // and a command asked for none: there, on this one); what only the rows can answer is counted
  // when asked while the list is small, and kept a minute at scale (shared/figure-cache.ts).
  const reader = path === ':memory:' || options.readerThread === false ? undefined : createSqliteReader(path)
  // Its thread is started now (90 ms), not by the first ask for figures.
  reader?.all('SELECT 1').catch(() => undefined)
  const read: SqliteRead = reader ? reader.all : (sql, params = {}) => run(() => db.prepare(sql).all(params) as never)
  const live = () => everyoneOf(peopleOf(tallies.readNow(PEOPLE_TALLIES))) < COUNTED_LIVE_BELOW
  const growth = createSqliteGrowth(db, run, tallies, { read, live })
  const counted = createFigureCache((breed: string) => sqliteCountedDemand(read, breed || null), { maxAgeMs: FIGURES_MAX_AGE_MS, live })
  // Nothing per visitor outlives its day, even on a day nobody visits.
  const forgetPastDays = setInterval(() => growth.forgetPastDaysNow(), 60_000).unref()
  const signups = createSqliteSignups(db, run, tallies, read)
  const breeds = createSqliteBreeds(db, run, tallies, { read, live })
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
    partners: createSqlitePartners(db, run, tallies),
    imports: createSqliteImports(db, run),
    growth,
    team: createSqliteTeam(db, run),
    webhooks: createSqliteWebhooks(db, run),
    segments: async (breed = null) => {
      const kept = await counted.get(breed ?? '')
      return run(() => {
        const rows = tallies.readNow([...PEOPLE_TALLIES, ...HAND_OFF_TALLIES])
        const people = peopleOf(rows)
        const counts = countryCountsOf(people)
        return demandMapOf({
          breed,
          people: kept.people ?? demandOf(people),
          counted: kept,
          handOff: rows,
          counts,
          targets: growth.targetsNow(),
        })
      })
    },
    close: async () => {
      if (closed) return
      closed = true
      clearInterval(forgetPastDays)
      await signups.drain() // sign-ups already accepted are written before the file is closed
      await reader?.close()
      db.close()
    },
  }
}
