// The PostgreSQL store (DATABASE_URL): a pool shared by the features, migrations under an advisory
// lock, and the features put together; each feature's SQL is in its own folder beside SQLite's.
import pg from 'pg'
import { StartupError } from '../startup-error.js'
import { createPostgresApp } from './app/postgres.js'
import { createPostgresBreeds } from './breeds/postgres.js'
import { createPostgresCampaigns } from './campaigns/postgres.js'
import { createPostgresDeliverability } from './deliverability/postgres.js'
import { HAND_OFF_TALLIES } from './app/shared.js'
import { postgresCountedDemand } from './demand/postgres.js'
import { demandMapOf } from './demand/shared.js'
import { createPostgresGrowth } from './growth/postgres.js'
import { createPostgresImports } from './imports/postgres.js'
import { createPostgresCounters } from './limits/postgres.js'
import { createPostgresOutbox } from './outbox/postgres.js'
import { createPostgresPartners } from './partners/postgres.js'
import { COUNTED_LIVE_BELOW, createFigureCache, FIGURES_MAX_AGE_MS } from './shared/figure-cache.js'
import { migrate } from './shared/migrate.js'
import { countOffPath, toStoreError } from './shared/postgres.js'
import { createPostgresSettings } from './settings/postgres.js'
import { createPostgresSignups } from './signups/postgres.js'
import { createPostgresSuppressions } from './suppressions/postgres.js'
import { countryCountsOf, demandOf, everyoneOf, PEOPLE_TALLIES, peopleOf } from './tallies/people.js'
import { FOLD_EVERY_MS, foldTallies, readTallies } from './tallies/postgres.js'
import { createPostgresTeam } from './team/postgres.js'
import { type StoreLogger, StoreUnavailableError, type WaitlistStore } from './types.js'
import { createPostgresVisitors } from './visitors/postgres.js'
import { createPostgresWebhooks } from './webhooks/postgres.js'

const MIGRATION_LOCK = 'kennect:migrations'
/** How often closed windows are deleted from rate_counters (by every instance; it is idempotent). */
const COUNTER_SWEEP_MS = 60_000

/** Pool size per server process. */
const POOL_SIZE = 10
/** How long to wait for a connection before answering 503 (a stopped server refuses at once). */
const CONNECTION_TIMEOUT_MS = 2_000

export async function createPostgresStore(url: string, log: StoreLogger): Promise<WaitlistStore> {
  // synchronous_commit is said explicitly, not trusted to the server's default: a commit is
  // acknowledged only once it is on disk, so a 201 survives a crash of the database (docs/protocol.md,
  // Storage). It goes in the startup options, after any the URL carries (such as search_path);
  // pg lets the URL's values override the config's, so the URL loses its own `options`.
  const connection = new URL(url)
  const urlOptions = connection.searchParams.get('options') ?? ''
  connection.searchParams.delete('options')
  const pool = new pg.Pool({
    connectionString: connection.toString(),
    options: `${urlOptions} -c synchronous_commit=on`.trim(),
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    // A query that hangs (a network partition, a locked table) fails instead of holding the visitor.
    query_timeout: 5_000,
    statement_timeout: 5_000,
    application_name: 'kennect-waitlist',
  })
  // An idle client whose server went away emits here; without a listener it would crash the process.
  pool.on('error', (error) => log.warn({ err: error }, 'PostgreSQL connection lost; the pool will reconnect'))

  try {
    await prepare(pool)
  } catch (error) {
    await pool.end()
    throw cannotUse(connection, error)
  }

  let closed = false
  // Figures only the rows can answer are counted when asked while the list is small, and kept a
  // minute at scale (shared/figure-cache.ts); whether it is small is the people tallies' sum.
  const live = async () => everyoneOf(peopleOf(await readTallies(pool, PEOPLE_TALLIES))) < COUNTED_LIVE_BELOW
  const growth = createPostgresGrowth(pool, run, { live })
  const counted = createFigureCache(
    (breed: string) => countOffPath(pool, (client) => postgresCountedDemand(client, growth, breed || null)),
    {
      maxAgeMs: FIGURES_MAX_AGE_MS,
      live,
    },
  )
  const sweep = setInterval(() => {
    pool
      .query('DELETE FROM rate_counters WHERE window_ends < now()')
      .catch((error: unknown) => log.warn({ err: error }, 'could not sweep rate_counters'))
    // Nothing per visitor outlives its day: the day's hashes and key go once it is over.
    growth.forgetPastDays().catch((error: unknown) => log.warn({ err: error }, "could not forget past days' visitors"))
  }, COUNTER_SWEEP_MS).unref()
  // The counters' deltas added up now and then (by whichever instance gets there first), so that
  // reading them stays a short sum.
  const fold = setInterval(() => {
    foldTallies(pool).catch((error: unknown) => log.warn({ err: error }, 'could not fold the tallies'))
  }, FOLD_EVERY_MS).unref()
  async function run<T>(work: () => Promise<T>): Promise<T> {
    if (closed) throw new StoreUnavailableError('the PostgreSQL store is closed')
    try {
      return await work()
    } catch (error) {
      throw toStoreError(error)
    }
  }

  const signups = createPostgresSignups(pool, run)
  const counters = createPostgresCounters(pool, run)
  const breeds = createPostgresBreeds(pool, run)

  return {
    add: (row) => (closed ? Promise.reject(new StoreUnavailableError('the PostgreSQL store is closed')) : signups.submit(row)),
    count: signups.count,
    list: signups.list,
    stats: signups.stats,
    remove: signups.remove,
    ping: () => run(async () => void (await pool.query('SELECT 1'))),
    visitors: createPostgresVisitors(pool, run),
    outbox: createPostgresOutbox(pool, run),
    campaigns: createPostgresCampaigns(pool, run, growth, breeds),
    breeds,
    suppressions: createPostgresSuppressions(pool, run),
    deliverability: createPostgresDeliverability(pool, run),
    settings: createPostgresSettings(pool, run),
    app: createPostgresApp(pool, run),
    partners: createPostgresPartners(pool, run),
    imports: createPostgresImports(pool, run),
    growth,
    team: createPostgresTeam(pool, run),
    webhooks: createPostgresWebhooks(pool, run),
    segments: (breed = null) =>
      run(async () => {
        const [rows, kept, targets] = await Promise.all([
          readTallies(pool, [...PEOPLE_TALLIES, ...HAND_OFF_TALLIES]),
          counted.get(breed ?? ''),
          growth.targetsOn(pool),
        ])
        const people = peopleOf(rows)
        return demandMapOf({
          breed,
          people: kept.people ?? demandOf(people),
          counted: kept,
          handOff: rows,
          counts: countryCountsOf(people),
          targets,
        })
      }),
    counters,
    close: async () => {
      if (closed) return
      closed = true
      clearInterval(sweep)
      clearInterval(fold)
      // Sign-ups already accepted are written before the pool closes (as on SQLite).
      await signups.drain()
      await counters.drain()
      await pool.end()
    },
  }
}

/** Why the database cannot be used, in words, for codes a person can act on. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'nothing answers there (connection refused)',
  ENOTFOUND: 'the host name is unknown',
  EAI_AGAIN: 'the host name cannot be looked up now',
  ETIMEDOUT: 'no answer in time',
  EHOSTUNREACH: 'the host cannot be reached',
  '28P01': 'the password was refused',
  '28000': 'the server does not let this role connect (pg_hba.conf)',
  '3D000': 'the database does not exist',
  '42501': 'the role may not create the tables it needs',
}

/** The start cannot go on: where (never the password), why, and what to check. */
function cannotUse(url: URL, error: unknown): StartupError {
  const first = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error
  const code = (first as { code?: unknown } | null)?.code
  const message = first instanceof Error ? first.message : String(first)
  const reason = (typeof code === 'string' ? REASONS[code] : undefined) ?? (/timeout/i.test(message) ? 'no answer in time' : message)
  const user = url.username ? ` as ${decodeURIComponent(url.username)}` : ''
  const where = `${url.hostname}:${url.port || '5432'}${url.pathname}${user}`
  const safeReason = url.password ? reason.replaceAll(decodeURIComponent(url.password), '***') : reason
  return new StartupError(
    `Cannot use PostgreSQL at ${where}: ${safeReason}.\nCheck DATABASE_URL, and that the database server is running and reachable from here.`,
    { cause: error },
  )
}

/**
 * Applies db/postgres/*.sql (the shared runner, in one transaction under an advisory lock, so
 * instances starting together take turns), then checks that commits are synchronous.
 */
async function prepare(pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  client.on('error', () => undefined) // the query under way reports it; see inTransaction
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK])
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    )
    await migrate('postgres', {
      applied: async () =>
        new Set((await client.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version)),
      apply: async (version, sql) => {
        await client.query(sql)
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version])
      },
    })
    await client.query('COMMIT')
    const { rows } = await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit')
    if (rows[0]?.synchronous_commit !== 'on') {
      throw new Error(`synchronous_commit is "${rows[0]?.synchronous_commit}"; acknowledged sign-ups could be lost`)
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined) // the connection may be gone; the first error is the one to report
    throw error
  } finally {
    client.release()
  }
}
