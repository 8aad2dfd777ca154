import pg from 'pg'
import { randomBytes } from 'node:crypto'
import { MAIL_STATES, type MailState } from '../../contract/admin-api.js'
import type { Locale } from '../../contract/locales.js'
import { DAILY_INVITE_CREDITS, DIRECT_SOURCE, type FunnelDay, type FunnelSource } from '../../contract/growth.js'
import { mailboxKey } from '../growth/mailbox.js'
import { hashToken, newInviteCode, newToken } from '../secrets.js'
import { StartupError } from '../startup-error.js'
import type { WindowCount, WindowCounters, WindowHit } from './counters.js'
import { funnelOf } from './funnel.js'
import { createGroupCommit, type Outcome } from './group-commit.js'
import { LAUNCH_TARGETS_KEY, readyCountries, storedTargets } from './launch.js'
import { migrate } from './migrate.js'
import { inTransaction, iso, type Run } from './pg-common.js'
import { createPostgresTeam, writeAudit } from './team-postgres.js'
import { createPostgresWebhooks } from './webhooks-postgres.js'
import { createPostgresCampaigns } from './campaigns-postgres.js'
import { createPostgresBreeds, readProfile, saveProfile } from './profile-postgres.js'
import { postgresDemandMap } from './demand-postgres.js'
import { createPostgresSuppressions } from './suppressions-postgres.js'
import { createPostgresDeliverability } from './deliverability-postgres.js'
import { SIGNUP_MAIL_COLUMNS } from './signup-mail.js'
import {
  type AddResult,
  type ClaimedMail,
  CONFIRMATION_INTERVAL_MS,
  type CountryCount,
  type GrowthStore,
  type InviteCounts,
  type ListOptions,
  type OutboxStore,
  type SignUp,
  StoreUnavailableError,
  type StoreLogger,
  TOP_SOURCES,
  type Visitor,
  type VisitorData,
  type VisitorStore,
  type WaitlistRow,
  type WaitlistStore,
} from './types.js'

// `id` is read as text (bigint may exceed a JS number's exact range in theory) and converted
// below; queries must order by `waitlist.id`, since a bare `id` would mean this text alias.
/** A moment as ISO 8601 text in UTC, as the SQLite store keeps them. */
const COLUMNS = `waitlist.id::text AS id, email, ${iso('waitlist.created_at')} AS created_at,
  utm_source, utm_medium, utm_campaign, referrer, ${iso('confirmed_at')} AS confirmed_at,
  ${iso('unsubscribed_at')} AS unsubscribed_at, role, breeds, country, invited_by::int AS invited_by, locale,
  (SELECT inviter.email FROM waitlist AS inviter WHERE inviter.id = waitlist.invited_by) AS invited_by_email,
  (SELECT count(*)::int FROM waitlist AS invitee WHERE invitee.invited_by = waitlist.id AND invitee.invite_credited_at IS NOT NULL) AS invites_confirmed`

/**
 * The sign-ups of one batch in one statement, each with its confirmation mail when one is due: a
 * new address, or a known one still unconfirmed, not unsubscribed, with none queued for a day
 * (the form is no way to flood an inbox). One commit for all of it.
 */
const ADD_SIGNUPS = `
  WITH input AS (
        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $7::text[], $8::text[]) WITH ORDINALITY
      AS i(email, utm_source, utm_medium, utm_campaign, referrer, invite, locale, n)
  ), inserted AS (
    INSERT INTO waitlist (email, utm_source, utm_medium, utm_campaign, referrer, locale, invited_by, confirmation_queued_at)
    SELECT email, utm_source, utm_medium, utm_campaign, referrer, locale,
      CASE WHEN invite IS NOT NULL THEN (SELECT inviter.id FROM waitlist AS inviter WHERE inviter.invite_code = input.invite) END,
      now()
    FROM input ORDER BY n
    ON CONFLICT DO NOTHING
    RETURNING id, lower(email) AS key
  ), requeued AS (
    UPDATE waitlist SET confirmation_queued_at = now()
    WHERE lower(email) IN (SELECT lower(email) FROM input)
      AND confirmed_at IS NULL AND unsubscribed_at IS NULL
      AND (confirmation_queued_at IS NULL OR confirmation_queued_at <= now() - $6 * interval '1 millisecond')
    RETURNING id, lower(email) AS key
  ), mails AS (
    INSERT INTO outbox (signup_id, kind) SELECT id, 'confirm' FROM inserted UNION ALL SELECT id, 'confirm' FROM requeued
  )
  SELECT key, true AS inserted FROM inserted UNION ALL SELECT key, false FROM requeued`
const MIGRATION_LOCK = 'kennect:migrations'
/** How often closed windows are deleted from rate_counters (by every instance; it is idempotent). */
const COUNTER_SWEEP_MS = 60_000

/**
 * `n` hits to each key, in one statement: a closed window restarts at n, an open one counts on.
 * Keys are taken in a sorted order, so concurrent statements lock rows in the same order.
 */
const HIT_COUNTERS = `
  INSERT INTO rate_counters AS c (key, hits, window_ends)
  SELECT key, n, now() + window_ms * interval '1 millisecond'
  FROM unnest($1::text[], $2::bigint[], $3::int[]) AS w(key, window_ms, n) ORDER BY key
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN c.window_ends <= now() THEN excluded.hits ELSE c.hits + excluded.hits END,
    window_ends = CASE WHEN c.window_ends <= now() THEN excluded.window_ends ELSE c.window_ends END
  RETURNING key, hits, ceil(extract(epoch FROM c.window_ends - now()) * 1000)::bigint AS reset_ms`

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
  const growth = createGrowth(pool, run)
  const sweep = setInterval(() => {
    pool
      .query('DELETE FROM rate_counters WHERE window_ends < now()')
      .catch((error: unknown) => log.warn({ err: error }, 'could not sweep rate_counters'))
    // Nothing per visitor outlives its day: the day's hashes and key go once it is over.
    growth.forgetPastDays().catch((error: unknown) => log.warn({ err: error }, "could not forget past days' visitors"))
  }, COUNTER_SWEEP_MS).unref()
  async function run<T>(work: () => Promise<T>): Promise<T> {
    if (closed) throw new StoreUnavailableError('the PostgreSQL store is closed')
    try {
      return await work()
    } catch (error) {
      throw toStoreError(error)
    }
  }

  // Group commit: the sign-ups of one event-loop turn go to PostgreSQL as one multi-row insert,
  // one commit for all, and each is answered after it. Batches of later turns run beside it on
  // other pooled connections.
  async function insertBatch(rows: readonly WaitlistRow[]): Promise<Outcome<AddResult>[]> {
    try {
      const column = (name: keyof WaitlistRow) => rows.map((row) => row[name])
      const result = await pool.query<{ key: string; inserted: boolean }>(ADD_SIGNUPS, [
        column('email'),
        column('utm_source'),
        column('utm_medium'),
        column('utm_campaign'),
        column('referrer'),
        CONFIRMATION_INTERVAL_MS,
        await invitesOf(rows),
        column('locale'),
      ])
      const done = new Map(result.rows.map((r) => [r.key, r.inserted]))
      // The first of several equal addresses in one batch is the one stored (and mailed).
      return rows.map((row) => {
        const key = row.email.toLowerCase()
        const inserted = done.get(key)
        done.delete(key)
        return { ok: true, value: { inserted: inserted === true, mailQueued: inserted !== undefined } }
      })
    } catch (error) {
      const failure = toStoreError(error)
      // A row the table refuses (the route's checks make it unlikely) must not fail the others:
      // they are tried one by one, so only that row fails.
      if (rows.length > 1 && !(failure instanceof StoreUnavailableError))
        return (await Promise.all(rows.map((row) => insertBatch([row])))).flat()
      return rows.map(() => ({ ok: false, error: failure }))
    }
  }
  const adds = createGroupCommit(insertBatch)

  /**
   * The batch's invite codes, each kept only where its inviter's mailbox is not the sign-up's own
   * under another spelling (docs/decisions/015-growth.md). A batch without codes asks nothing.
   */
  async function invitesOf(rows: readonly WaitlistRow[]): Promise<(string | null)[]> {
    const codes = [...new Set(rows.flatMap((row) => (row.invite === null ? [] : [row.invite])))]
    if (codes.length === 0) return rows.map(() => null)
    const inviters = await pool.query<{ invite_code: string; email: string }>(
      'SELECT invite_code, email FROM waitlist WHERE invite_code = ANY($1::text[])',
      [codes],
    )
    const mailboxOf = new Map(inviters.rows.map((r) => [r.invite_code, mailboxKey(r.email)]))
    return rows.map((row) => (row.invite !== null && mailboxOf.get(row.invite) !== mailboxKey(row.email) ? row.invite : null))
  }

  // The counters' hits of one event-loop turn go in one statement, like the sign-ups: a key hit
  // k times in the batch counts k at once, and its callers get the counts in the order they came.
  const counterHits = createGroupCommit<WindowHit, WindowCount>(async (hits) => {
    const batch = new Map<string, { windowMs: number; n: number }>()
    for (const { key, windowMs } of hits) {
      const entry = batch.get(key)
      if (entry) entry.n++
      else batch.set(key, { windowMs, n: 1 })
    }
    const keys = [...batch.keys()]
    const entries = [...batch.values()]
    const result = await run(() =>
      pool.query<{ key: string; hits: number; reset_ms: string }>(HIT_COUNTERS, [
        keys,
        entries.map((e) => e.windowMs),
        entries.map((e) => e.n),
      ]),
    )
    const totals = new Map(result.rows.map((r) => [r.key, r]))
    const given = new Map<string, number>()
    return hits.map(({ key }) => {
      const total = totals.get(key)
      const n = batch.get(key)?.n ?? 1
      const before = given.get(key) ?? 0
      given.set(key, before + 1)
      if (!total) return { ok: false as const, error: new Error(`rate_counters: no row for a key`) }
      return { ok: true as const, value: { hits: total.hits - n + before + 1, resetMs: Number(total.reset_ms) } }
    })
  })

  const breeds = createPostgresBreeds(pool, run)

  return {
    add: (row) => (closed ? Promise.reject(new StoreUnavailableError('the PostgreSQL store is closed')) : adds.submit(row)),
    count: ({ since }: Pick<ListOptions, 'since'> = {}) =>
      run(async () => {
        const result = await pool.query<{ n: string }>(
          'SELECT count(*) AS n FROM waitlist WHERE ($1::timestamptz IS NULL OR created_at >= $1)',
          [since ?? null],
        )
        return Number(result.rows[0]?.n ?? 0)
      }),
    list: ({ afterId = 0, limit, search, since }: ListOptions) =>
      run(async () => {
        const result = await pool.query<SignUp & { id: string }>(
          `SELECT ${COLUMNS}, ${SIGNUP_MAIL_COLUMNS} FROM waitlist
           WHERE waitlist.id > $1
             AND ($3::text IS NULL OR strpos(lower(email), lower($3)) > 0)
             AND ($4::timestamptz IS NULL OR waitlist.created_at >= $4)
           ORDER BY waitlist.id LIMIT $2`,
          [afterId, limit, search || null, since ?? null],
        )
        return result.rows.map((row) => ({ ...row, id: Number(row.id) }))
      }),
    stats: () =>
      run(async () => {
        const days = await pool.query<{ day: string; count: string }>(
          `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS count
           FROM waitlist GROUP BY day ORDER BY day`,
        )
        const sources = await pool.query<{ source: string | null; count: string }>(
          `SELECT source, count FROM (SELECT coalesce(utm_source, referrer) AS source, count(*) AS count FROM waitlist GROUP BY 1) AS s
           ORDER BY count DESC, source IS NULL, source LIMIT ${TOP_SOURCES}`,
        )
        const perDay = days.rows.map((r) => ({ day: r.day, count: Number(r.count) }))
        return {
          total: perDay.reduce((sum, d) => sum + d.count, 0),
          perDay,
          perSource: sources.rows.map((r) => ({ source: r.source, count: Number(r.count) })),
        }
      }),
    remove: (email, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const { rows } = await client.query<{ id: string }>(
            'DELETE FROM waitlist WHERE lower(email) = lower($1) RETURNING id::text AS id',
            [email],
          )
          // A deleted sign-up is named in the audit log by its id, never its address.
          if (audit) for (const row of rows) await writeAudit(client, audit(Number(row.id)))
          return rows.length > 0
        }),
      ),
    ping: () => run(async () => void (await pool.query('SELECT 1'))),
    visitors: createVisitors(pool, run),
    outbox: createOutbox(pool, run),
    campaigns: createPostgresCampaigns(pool, run, growth, breeds),
    breeds,
    suppressions: createPostgresSuppressions(pool, run),
    deliverability: createPostgresDeliverability(pool, run),
    growth,
    team: createPostgresTeam(pool, run),
    webhooks: createPostgresWebhooks(pool, run),
    segments: (breed) => run(() => postgresDemandMap(pool, growth, breed ?? null)),
    counters: {
      hit: (windows) => Promise.all(windows.map((window) => counterHits.submit(window))),
      peek: (key) =>
        run(async () => {
          const result = await pool.query<{ hits: number; reset_ms: string }>(
            `SELECT hits, ceil(extract(epoch FROM window_ends - now()) * 1000)::bigint AS reset_ms
             FROM rate_counters WHERE key = $1 AND window_ends > now()`,
            [key],
          )
          const row = result.rows[0]
          return row ? { hits: row.hits, resetMs: Number(row.reset_ms) } : { hits: 0, resetMs: 0 }
        }),
    } satisfies WindowCounters,
    close: async () => {
      if (closed) return
      closed = true
      clearInterval(sweep)
      // Sign-ups already accepted are written before the pool closes (as on SQLite).
      await adds.drain()
      await counterHits.drain()
      await pool.end()
    },
  }
}

/**
 * Connection trouble, shutdowns, timeouts and resource exhaustion are retryable (503). An error
 * with any other SQLSTATE is a bug of ours and stays an error (500, logged).
 */
function toStoreError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code
  const sqlstate = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined
  if (sqlstate && !/^(08|53|57|58|40001|40P01|55P03|25006)/.test(sqlstate)) return error
  return new StoreUnavailableError(`PostgreSQL: ${describe(error)}`, { cause: error })
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

function describe(error: unknown): string {
  if (error instanceof AggregateError) return error.errors.map(describe).join('; ')
  const { code, message } = error as { code?: unknown; message?: unknown }
  return [code, message].filter((part) => typeof part === 'string' && part !== '').join(': ') || String(error)
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

async function inviteCounts(pool: pg.Pool, id: number): Promise<InviteCounts> {
  const result = await pool.query<InviteCounts>(
    'SELECT count(*)::int AS joined, count(invite_credited_at)::int AS confirmed FROM waitlist WHERE invited_by = $1',
    [id],
  )
  return result.rows[0] ?? { joined: 0, confirmed: 0 }
}

function createVisitors(pool: pg.Pool, run: Run): VisitorStore {
  return {
    byToken: (tokenHash) =>
      run(async () => {
        const result = await pool.query<Omit<Visitor, 'profile' | 'id'> & { id: string }>(
          `SELECT waitlist.id::text AS id, email, ${iso('waitlist.created_at')} AS created_at, ${iso('confirmed_at')} AS confirmed_at,
             ${iso('unsubscribed_at')} AS unsubscribed_at, invite_code, locale
           FROM page_tokens JOIN waitlist ON waitlist.id = page_tokens.signup_id WHERE token_hash = $1`,
          [tokenHash],
        )
        const row = result.rows[0]
        const profile = row && (await readProfile(pool, Number(row.id)))
        return row && profile ? { ...row, id: Number(row.id), profile } : undefined
      }),
    // One transaction: the confirmation, the code, and the inviter's credit decided together. The
    // inviter's row is locked while its credits are counted, so two invitees confirming at once
    // are counted one after the other and the daily limit holds. Rows are locked newest first
    // (an inviter is always older than the sign-up it invited), so two confirmations never deadlock.
    confirm: (id) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const before = await client.query<{ confirmed: boolean; invited_by: string | null }>(
            'SELECT confirmed_at IS NOT NULL AS confirmed, invited_by::text FROM waitlist WHERE id = $1 FOR UPDATE',
            [id],
          )
          const row = before.rows[0]
          if (!row) return
          await client.query(
            'UPDATE waitlist SET confirmed_at = coalesce(confirmed_at, now()), invite_code = coalesce(invite_code, $2) WHERE id = $1',
            [id, newInviteCode()],
          )
          if (row.confirmed || row.invited_by === null) return
          const inviter = await client.query<{ subscribed: boolean }>(
            'SELECT unsubscribed_at IS NULL AS subscribed FROM waitlist WHERE id = $1 FOR UPDATE',
            [row.invited_by],
          )
          if (!inviter.rows[0]?.subscribed) return
          const credits = await client.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM waitlist
             WHERE invited_by = $1 AND invite_credited_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
            [row.invited_by],
          )
          if ((credits.rows[0]?.n ?? 0) >= DAILY_INVITE_CREDITS) return
          await client.query('UPDATE waitlist SET invite_credited_at = now() WHERE id = $1', [id])
        }),
      ),
    invites: (id) => run(() => inviteCounts(pool, id)),
    setLocale: (id, locale) => run(async () => void (await pool.query('UPDATE waitlist SET locale = $2 WHERE id = $1', [id, locale]))),
    saveProfile: (id, profile) => run(() => saveProfile(pool, id, profile)),
    setSubscribed: (id, subscribed) =>
      run(() =>
        inTransaction(pool, async (client) => {
          if (subscribed) {
            await client.query('UPDATE waitlist SET unsubscribed_at = NULL WHERE id = $1', [id])
            return
          }
          await client.query('UPDATE waitlist SET unsubscribed_at = coalesce(unsubscribed_at, now()) WHERE id = $1', [id])
          // Mails not yet under way are not sent to an address that stopped e-mails.
          await client.query(
            `UPDATE outbox SET state = 'failed', token = NULL, last_error = 'unsubscribed' WHERE signup_id = $1 AND state = 'queued'`,
            [id],
          )
        }),
      ),
    remove: (id) => run(async () => void (await pool.query('DELETE FROM waitlist WHERE id = $1', [id]))),
    data: (id) =>
      run(async () => {
        const signup = await pool.query<VisitorData['signup'] & { id: string }>(
          `SELECT ${COLUMNS}, ${iso('confirmation_queued_at')} AS confirmation_queued_at FROM waitlist WHERE id = $1`,
          [id],
        )
        const row = signup.rows[0]
        if (!row) throw new Error(`no sign-up ${id}`)
        const mails = await pool.query<VisitorData['mails'][number]>(
          `SELECT kind, state, attempts, ${iso('created_at')} AS created_at, ${iso('sent_at')} AS sent_at FROM outbox WHERE signup_id = $1 ORDER BY id`,
          [id],
        )
        const links = await pool.query<{ n: string }>('SELECT count(*) AS n FROM page_tokens WHERE signup_id = $1', [id])
        const code = await pool.query<{ invite_code: string | null }>('SELECT invite_code FROM waitlist WHERE id = $1', [id])
        return {
          signup: { ...row, id: Number(row.id) },
          mails: mails.rows,
          page_links: Number(links.rows[0]?.n ?? 0),
          invite: { code: code.rows[0]?.invite_code ?? null, ...(await inviteCounts(pool, id)) },
          profile: (await readProfile(pool, id)) ?? { role: null, breeds: [], country: null, club: null, litters: null },
        }
      }),
  }
}

/**
 * The next mails due, in the outbox's order (confirmations first, then the longest due), walked
 * from the index in that order (db/postgres/005) until the batch is full, then joined to their
 * addresses. Exported for the test of its plan (tests/api/outbox-claim-plan.test.ts).
 */
export const CLAIM_SQL = `WITH due AS (
    SELECT id FROM outbox
    WHERE state IN ('queued', 'sending')
      AND ((state = 'queued' AND next_attempt_at <= now()) OR (state = 'sending' AND lease_until <= now()))
      AND (campaign_id IS NULL OR campaign_id IN (SELECT id FROM campaigns WHERE status = 'sending'))
        ORDER BY kind = 'campaign', next_attempt_at, id
    LIMIT $1
    FOR UPDATE SKIP LOCKED
  )
  SELECT outbox.id::text AS id, kind, campaign_id::text AS campaign_id, message_key::text AS message_key, attempts,
    ${iso('outbox.created_at')} AS created_at, token, coalesce(waitlist.email, operator_links.email, operators.email) AS email,
    coalesce(waitlist.locale, 'en') AS locale, signup_id::text AS signup_id, link_id, note
  FROM due JOIN outbox ON outbox.id = due.id
    LEFT JOIN waitlist ON waitlist.id = outbox.signup_id
    LEFT JOIN operator_links ON operator_links.id = outbox.link_id
    LEFT JOIN operators ON operators.id = outbox.operator_id
  ORDER BY kind = 'campaign', next_attempt_at, outbox.id`

function createOutbox(pool: pg.Pool, run: Run): OutboxStore {
  // The mails sent in one event-loop turn are recorded in one statement (one commit for all).
  const sentMarks = createGroupCommit<number, void>(async (ids) => {
    await run(() =>
      pool.query(
        `UPDATE outbox SET state = 'sent', sent_at = now(), token = NULL, lease_until = NULL, last_error = NULL WHERE id = ANY($1::bigint[])`,
        [ids],
      ),
    )
    return ids.map(() => ({ ok: true as const, value: undefined }))
  })
  type Due = {
    id: string
    kind: ClaimedMail['kind']
    campaign_id: string | null
    message_key: string
    attempts: number
    created_at: string
    token: string | null
    email: string
    locale: Locale
    signup_id: string | null
    link_id: number | null
    note: Record<string, unknown> | null
  }
  return {
    claim: (limit, leaseMs) =>
      run(() =>
        inTransaction(pool, async (client) => {
          // SKIP LOCKED: rows another instance is claiming now are left to it; a row is never sent
          // by two instances at once, and a lapsed lease (a crashed instance) frees it again.
          const due = await client.query<Due>(CLAIM_SQL, [limit])
          if (due.rows.length === 0) return []
          // The mail's token is made when it is first claimed and kept until it is sent, so a resend is the same message.
          const tokens = due.rows.map((mail) => mail.token ?? newToken())
          const fresh = due.rows.flatMap((mail, i) =>
            mail.token === null && mail.signup_id !== null ? [{ signupId: mail.signup_id, hash: hashToken(tokens[i] ?? '') }] : [],
          )
          // An operator's link gets its token the same way: only its hash is kept, on the link.
          for (const [i, mail] of due.rows.entries())
            if (mail.token === null && mail.link_id !== null)
              await client.query('UPDATE operator_links SET token_hash = $2 WHERE id = $1', [mail.link_id, hashToken(tokens[i] ?? '')])
          if (fresh.length > 0) {
            await client.query('INSERT INTO page_tokens (token_hash, signup_id) SELECT * FROM unnest($1::text[], $2::bigint[])', [
              fresh.map((f) => f.hash),
              fresh.map((f) => f.signupId),
            ])
          }
          await client.query(
            `UPDATE outbox SET state = 'sending', lease_until = now() + $3 * interval '1 millisecond', attempts = attempts + 1, token = t.token
             FROM unnest($1::bigint[], $2::text[]) AS t(id, token) WHERE outbox.id = t.id`,
            [due.rows.map((mail) => mail.id), tokens, leaseMs],
          )
          return due.rows.map((mail, i): ClaimedMail => ({
            id: Number(mail.id),
            kind: mail.kind,
            campaignId: mail.campaign_id === null ? null : Number(mail.campaign_id),
            messageKey: mail.message_key,
            attempt: mail.attempts + 1,
            createdAt: mail.created_at,
            token: tokens[i] ?? '',
            to: mail.email,
            locale: mail.locale,
            note: mail.note,
          }))
        }),
      ),
    extendLease: (ids, leaseMs) =>
      run(async () => {
        if (ids.length === 0) return
        await pool.query(
          `UPDATE outbox SET lease_until = now() + $2 * interval '1 millisecond' WHERE id = ANY($1::bigint[]) AND state = 'sending'`,
          [ids, leaseMs],
        )
      }),
    markSent: (id) => sentMarks.submit(id),
    retryAt: (id, at, error) =>
      run(
        async () =>
          void (await pool.query(
            `UPDATE outbox SET state = 'queued', next_attempt_at = $2, lease_until = NULL, last_error = $3 WHERE id = $1`,
            [id, at, error],
          )),
      ),
    giveUp: (id, state, error) =>
      run(
        async () =>
          void (await pool.query('UPDATE outbox SET state = $2, token = NULL, lease_until = NULL, last_error = $3 WHERE id = $1', [
            id,
            state,
            error,
          ])),
      ),
    counts: () =>
      run(async () => {
        const result = await pool.query<{ state: MailState; n: string }>('SELECT state, count(*) AS n FROM outbox GROUP BY state')
        const found = new Map(result.rows.map((r) => [r.state, Number(r.n)]))
        return Object.fromEntries(MAIL_STATES.map((state) => [state, found.get(state) ?? 0])) as Record<MailState, number>
      }),
    nextDue: () =>
      run(async () => {
        const result = await pool.query<{ at: string | null }>(
          `SELECT ${iso(`min(CASE WHEN state = 'queued' THEN next_attempt_at ELSE lease_until END)`)} AS at FROM outbox WHERE state IN ('queued', 'sending')`,
        )
        return result.rows[0]?.at ?? null
      }),
  }
}

/** How many inviters the demand map lists. */
type Queryable = pg.Pool | pg.PoolClient

/** The growth store, and what the other parts of this store ask of it on their own connections. */
export interface PostgresGrowth extends GrowthStore {
  targetsOn(db: Queryable): Promise<ReturnType<typeof storedTargets>>
  countsOn(db: Queryable, country?: string | null): Promise<CountryCount[]>
  readyOn(db: Queryable): Promise<string[]>
  topInvitersOn(db: Queryable, limit: number): Promise<{ id: number; email: string; joined: number; confirmed: number }[]>
}

/** Today in UTC, as PostgreSQL's date. */
const TODAY = `(now() AT TIME ZONE 'UTC')::date`

/**
 * A flush of counted views in one statement: the visitors not yet seen that day go into
 * visitor_hashes (every instance shares it, so one visitor counts once), and each (day, source)
 * adds its views and its new visitors.
 */
const ADD_VIEWS = `
  WITH views AS (
    SELECT * FROM unnest($1::date[], $2::text[], $3::int[]) AS v(day, source, views)
  ), candidates AS (
    SELECT * FROM unnest($4::date[], $5::text[], $6::bytea[]) AS c(day, source, hash)
  ), fresh AS (
    INSERT INTO visitor_hashes (day, hash) SELECT day, hash FROM candidates ORDER BY day, hash
    ON CONFLICT DO NOTHING
    RETURNING day, hash
  ), counted AS (
    SELECT candidates.day, candidates.source, count(*)::int AS visitors
    FROM candidates JOIN fresh ON fresh.day = candidates.day AND fresh.hash = candidates.hash GROUP BY 1, 2
  )
  INSERT INTO page_views AS p (day, source, views, visitors)
  SELECT views.day, views.source, views.views, coalesce(counted.visitors, 0)
  FROM views LEFT JOIN counted ON counted.day = views.day AND counted.source = views.source
  ORDER BY views.day, views.source
  ON CONFLICT (day, source) DO UPDATE SET views = p.views + excluded.views, visitors = p.visitors + excluded.visitors`

function createGrowth(pool: pg.Pool, run: Run): PostgresGrowth {
  const targetsOn = async (db: Queryable) => {
    const result = await db.query<{ value: unknown }>('SELECT value FROM settings WHERE key = $1', [LAUNCH_TARGETS_KEY])
    return storedTargets(result.rows[0]?.value)
  }
  const countsOn = async (db: Queryable, country: string | null = null) =>
    (
      await db.query<CountryCount>(
        `SELECT country, count(*)::int AS confirmed, count(*) FILTER (WHERE role = 'breeder')::int AS breeders,
           count(*) FILTER (WHERE role = 'owner')::int AS owners
         FROM waitlist WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL AND country IS NOT NULL
           AND ($1::text IS NULL OR country = $1)
         GROUP BY country ORDER BY confirmed DESC, country`,
        [country],
      )
    ).rows
  const topInvitersOn = async (db: Queryable, limit: number) =>
    (
      await db.query<{ id: number; email: string; joined: number; confirmed: number }>(
        `SELECT inviter.id::int AS id, inviter.email, count(*)::int AS joined, count(invitee.invite_credited_at)::int AS confirmed
         FROM waitlist AS invitee JOIN waitlist AS inviter ON inviter.id = invitee.invited_by
         GROUP BY inviter.id ORDER BY confirmed DESC, joined DESC, inviter.id LIMIT $1`,
        [limit],
      )
    ).rows
  // The day's key, once read or made, is kept by this process until the day is over.
  const keys = new Map<string, Buffer>()
  return {
    targetsOn,
    countsOn,
    readyOn: async (db) => readyCountries(await countsOn(db), await targetsOn(db)),
    topInvitersOn,
    forgetPastDays: () =>
      run(async () => {
        const today = new Date().toISOString().slice(0, 10)
        for (const day of [...keys.keys()]) if (day < today) keys.delete(day)
        await pool.query(`DELETE FROM visitor_hashes WHERE day < ${TODAY}`)
        await pool.query(`DELETE FROM visitor_day_keys WHERE day < ${TODAY}`)
      }),
    launchTargets: () => run(() => targetsOn(pool)),
    setLaunchTargets: (targets, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          await client.query(
            `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, now())
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
            [LAUNCH_TARGETS_KEY, JSON.stringify(targets)],
          )
          if (audit) await writeAudit(client, audit)
        }),
      ),
    countryCounts: (country) => run(() => countsOn(pool, country ?? null)),
    waiting: () =>
      run(async () => {
        const result = await pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM waitlist WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL',
        )
        return result.rows[0]?.n ?? 0
      }),
    // The first instance to need the day's key makes it; every other one reads that one.
    visitorKey: (day) =>
      run(async () => {
        const known = keys.get(day)
        if (known) return known
        const result = await pool.query<{ secret: Buffer }>(
          `WITH made AS (INSERT INTO visitor_day_keys (day, secret) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING RETURNING secret)
           SELECT secret FROM made UNION ALL SELECT secret FROM visitor_day_keys WHERE day = $1`,
          [day, randomBytes(32)],
        )
        const secret = result.rows[0]?.secret
        if (!secret) throw new Error(`visitor_day_keys: no key for ${day}`)
        keys.set(day, secret)
        return secret
      }),
    addViews: (batch) =>
      run(async () => {
        if (batch.length === 0) return
        const candidates = batch.flatMap((entry) => entry.visitors.map((hash) => ({ day: entry.day, source: entry.source, hash })))
        await pool.query(ADD_VIEWS, [
          batch.map((entry) => entry.day),
          batch.map((entry) => entry.source),
          batch.map((entry) => entry.views),
          candidates.map((c) => c.day),
          candidates.map((c) => c.source),
          candidates.map((c) => c.hash),
        ])
      }),
    funnel: (since, until, breed = null) =>
      run(async () => {
        const range = [since, until]
        const perDay = await pool.query<{ day: string; views: string; visitors: string }>(
          `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(views) AS views, sum(visitors) AS visitors
           FROM page_views WHERE day BETWEEN $1::date AND $2::date GROUP BY day`,
          range,
        )
        const perSource = await pool.query<{ source: string; views: string; visitors: string }>(
          'SELECT source, sum(views) AS views, sum(visitors) AS visitors FROM page_views WHERE day BETWEEN $1::date AND $2::date GROUP BY source',
          range,
        )
        // Each day's sign-ups as a cohort: how many went on to confirm, to tell their profile, to bring a confirmed sign-up.
        const cohortsPerDay = await pool.query<Omit<FunnelDay, 'views' | 'visitors'>>(
          `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS signups, count(confirmed_at)::int AS confirmed,
             count(*) FILTER (WHERE role IS NOT NULL OR country IS NOT NULL OR cardinality(breeds) > 0)::int AS profiled,
             count(*) FILTER (WHERE EXISTS (SELECT 1 FROM waitlist AS invitee WHERE invitee.invited_by = waitlist.id AND invitee.confirmed_at IS NOT NULL))::int AS inviters
           FROM waitlist
           WHERE created_at >= $1::date AT TIME ZONE 'UTC' AND created_at < ($2::date + 1) AT TIME ZONE 'UTC' AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = $3))
           GROUP BY 1`,
          [...range, breed],
        )
        const cohortsPerSource = await pool.query<Pick<FunnelSource, 'source' | 'signups' | 'confirmed'>>(
          `SELECT coalesce(utm_source, referrer, '${DIRECT_SOURCE}') AS source, count(*)::int AS signups, count(confirmed_at)::int AS confirmed
           FROM waitlist
           WHERE created_at >= $1::date AT TIME ZONE 'UTC' AND created_at < ($2::date + 1) AT TIME ZONE 'UTC' AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = $3))
           GROUP BY 1`,
          [...range, breed],
        )
        return funnelOf(perDay.rows, perSource.rows, cohortsPerDay.rows, cohortsPerSource.rows, since, until)
      }),
    topInviters: (limit) => run(() => topInvitersOn(pool, limit)),
  }
}
