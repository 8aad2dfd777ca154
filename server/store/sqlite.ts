import Database from 'better-sqlite3'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { MAIL_STATES, type MailState } from '../../contract/admin-api.js'
import { DAILY_INVITE_CREDITS, DIRECT_SOURCE, type FunnelDay, type FunnelSource } from '../../contract/growth.js'
import type { Locale } from '../../contract/locales.js'
import { mailboxKey } from '../growth/mailbox.js'
import { hashToken, newInviteCode, newToken } from '../secrets.js'
import { StartupError } from '../startup-error.js'
import { createMemoryCounters } from './counters.js'
import { createGroupCommit, type Outcome } from './group-commit.js'
import { LAUNCH_TARGETS_KEY, readyCountries, storedTargets } from './launch.js'
import { migrate } from './migrate.js'
import {
  type AddResult,
  type AuditEntry,
  type ClaimedMail,
  CONFIRMATION_INTERVAL_MS,
  type CountryCount,
  type GrowthStore,
  type InviteCounts,
  type ListOptions,
  type OutboxStore,
  type SignUp,
  StoreUnavailableError,
  TOP_SOURCES,
  type Visitor,
  type VisitorData,
  type VisitorStore,
  type ViewBatch,
  type WaitlistRow,
  type WaitlistStore,
} from './types.js'
import { funnelOf } from './funnel.js'
import { auditWriter, createSqliteTeam } from './team-sqlite.js'
import { createSqliteWebhooks } from './webhooks-sqlite.js'
import { createSqliteCampaigns } from './campaigns-sqlite.js'
import { createSqliteBreeds, createSqliteProfiles } from './profile-sqlite.js'
import { sqliteDemandMap } from './demand-sqlite.js'
import { createSqliteSuppressions } from './suppressions-sqlite.js'
import { createSqliteDeliverability } from './deliverability-sqlite.js'
import { SIGNUP_MAIL_COLUMNS } from './signup-mail.js'

const SIGNUP_COLUMNS = `waitlist.id, email, waitlist.created_at, utm_source, utm_medium, utm_campaign, referrer,
    confirmed_at, unsubscribed_at, role, breeds, country, invited_by, locale,
  (SELECT inviter.email FROM waitlist AS inviter WHERE inviter.id = waitlist.invited_by) AS invited_by_email,
  (SELECT count(*) FROM waitlist AS invitee WHERE invitee.invited_by = waitlist.id AND invitee.invite_credited_at IS NOT NULL) AS invites_confirmed`

type SignUpRow = Omit<SignUp, 'breeds'> & { breeds: string }
/** breeds is a JSON array in SQLite. */
const toSignUp = (row: SignUpRow): SignUp => ({ ...row, breeds: JSON.parse(row.breeds) as string[] })
const now = () => new Date().toISOString()

/** The file cannot be made or opened: which file, why, and the variable that chooses another. */
function cannotOpen(path: string, error: unknown): StartupError {
  const reason = error instanceof Error ? error.message.replace(/^[A-Z]+: /, '') : String(error)
  return new StartupError(
    `Cannot open the SQLite database ${resolve(path)}: ${reason}.\nSet SQLITE_PATH to a file in a folder this server may create and write (default data/waitlist.db).`,
    { cause: error },
  )
}

/** SQLite's lower(): ASCII letters only, as the unique index on lower(email) compares addresses. */
const sqliteLower = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())

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
    `INSERT INTO waitlist (email, utm_source, utm_medium, utm_campaign, referrer, invited_by, locale, confirmation_queued_at)
     VALUES (@email, @utm_source, @utm_medium, @utm_campaign, @referrer, @invitedBy, @locale, @now)
     ON CONFLICT DO NOTHING
     RETURNING id`,
  )
  const inviterOf = db.prepare('SELECT id, email FROM waitlist WHERE invite_code = ?')
  // A known address entered again: another confirmation mail only if it is still unconfirmed,
  // not unsubscribed, and had none queued for a day (the form is no way to flood an inbox).
  const requeueConfirmation = db.prepare(
    `UPDATE waitlist SET confirmation_queued_at = @now
     WHERE lower(email) = lower(@email) AND confirmed_at IS NULL AND unsubscribed_at IS NULL
       AND (confirmation_queued_at IS NULL OR confirmation_queued_at <= @cutoff)
     RETURNING id`,
  )
  const queueMail = db.prepare(
    `INSERT INTO outbox (signup_id, kind, campaign_id, message_key, next_attempt_at, created_at)
     VALUES (@signupId, @kind, @campaignId, @messageKey, @now, @now)`,
  )
  const countSince = db.prepare('SELECT count(*) AS n FROM waitlist WHERE created_at >= @since').pluck()
  // One statement for every filter: an absent filter is NULL and matches everything.
  const listAfter = db.prepare(
    `SELECT ${SIGNUP_COLUMNS}, ${SIGNUP_MAIL_COLUMNS} FROM waitlist
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
  const removeEmail = db.prepare('DELETE FROM waitlist WHERE lower(email) = lower(?) RETURNING id').pluck()
  const writeAudit = auditWriter(db)
  // A deleted sign-up is named in the audit log by its id, never its address.
  const removeAudited = db.transaction((email: string, audit?: (id: number) => AuditEntry) => {
    const ids = removeEmail.all(email) as number[]
    if (audit) for (const id of ids) writeAudit(audit(id))
    return ids.length > 0
  })
  const ping = db.prepare('SELECT 1').pluck()
  let closed = false
  const growth = createGrowth(db, run)
  // Nothing per visitor outlives its day, even on a day nobody visits.
  const forgetPastDays = setInterval(() => growth.forgetPastDaysNow(), 60_000).unref()

  // Group commit: one transaction, one fsync, for the sign-ups of one event-loop turn. (One
  // transaction per sign-up spends nearly all its time in fsync: 3,000/s on this machine.)
  // The batch is written by two statements, not two per row: its rows as one JSON array through
  // json_each, then the confirmation mails of the rows that went in. Per row, the same work and
  // the same indexes, without a statement's run from JavaScript for each (docs/performance.md,
  // issue 23: 17 µs of statements per sign-up became 9). A batch the table refuses (a CHECK) is
  // written again row by row, so that only the bad row fails.
  const insertRows = db.prepare(
    `INSERT INTO waitlist (email, utm_source, utm_medium, utm_campaign, referrer, invited_by, locale, confirmation_queued_at)
     SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, @now
     FROM json_each(@rows) WHERE true
     ON CONFLICT DO NOTHING
     RETURNING id, email`,
  )
  const queueConfirmations = db.prepare(
    `INSERT INTO outbox (signup_id, kind, message_key, next_attempt_at, created_at)
     SELECT value ->> 0, 'confirm', value ->> 1, @now, @now FROM json_each(@mails)`,
  )
  /** An unknown code, or one of a deleted inviter, links nothing; nor does the inviter's own mailbox under another spelling (docs/decisions/015-growth.md). */
  const invitedByOf = (row: WaitlistRow): number | null => {
    const inviter = row.invite === null ? undefined : (inviterOf.get(row.invite) as { id: number; email: string } | undefined)
    return inviter && mailboxKey(inviter.email) !== mailboxKey(row.email) ? inviter.id : null
  }
  const insertBatch = db.transaction((rows: readonly WaitlistRow[]): Outcome<AddResult>[] => {
    // One moment for the batch: its rows are committed together.
    const at = now()
    const cutoff = new Date(Date.parse(at) - CONFIRMATION_INTERVAL_MS).toISOString()
    let inserted: { id: number; email: string }[]
    try {
      const values = rows.map((row) => [
        row.email,
        row.utm_source,
        row.utm_medium,
        row.utm_campaign,
        row.referrer,
        invitedByOf(row),
        row.locale,
      ])
      inserted = insertRows.all({ rows: JSON.stringify(values), now: at }) as { id: number; email: string }[]
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) return insertOneByOne(rows, at, cutoff)
      throw error
    }
    // RETURNING's order is not the batch's: each row finds its id by its address as the unique
    // index compares it (SQLite's lower() folds ASCII only). Only the batch's first row of an
    // address can have gone in; a later one of the same address is a known address.
    const idOf = new Map(inserted.map((row) => [sqliteLower(row.email), row.id]))
    const mails: [number, string][] = []
    const outcomes = rows.map((row): Outcome<AddResult> => {
      const key = sqliteLower(row.email)
      const id = idOf.get(key)
      idOf.delete(key)
      const mailFor = id ?? (requeueConfirmation.get({ email: row.email, now: at, cutoff }) as { id: number } | undefined)?.id
      if (mailFor !== undefined) mails.push([mailFor, randomUUID()])
      return { ok: true, value: { inserted: id !== undefined, mailQueued: mailFor !== undefined } }
    })
    if (mails.length > 0) queueConfirmations.run({ mails: JSON.stringify(mails), now: at })
    return outcomes
  })
  /** The batch row by row, each in a savepoint of its own: a row the table refuses fails alone. */
  const insertOneByOne = (rows: readonly WaitlistRow[], at: string, cutoff: string) =>
    rows.map((row): Outcome<AddResult> => {
      try {
        return { ok: true, value: insertOne(row, at, cutoff) }
      } catch (error) {
        // It cannot pass the route's checks, but the table checks too.
        if ((error as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) return { ok: false, error }
        throw error
      }
    })
  const insertOne = db.transaction((row: WaitlistRow, at: string, cutoff: string): AddResult => {
    const { email, utm_source, utm_medium, utm_campaign, referrer, locale } = row
    const inserted = insert.get({ email, utm_source, utm_medium, utm_campaign, referrer, locale, invitedBy: invitedByOf(row), now: at }) as
      { id: number } | undefined
    const mailFor = inserted ?? (requeueConfirmation.get({ email: row.email, now: at, cutoff }) as { id: number } | undefined)
    if (mailFor) queueMail.run({ signupId: mailFor.id, kind: 'confirm', campaignId: null, messageKey: randomUUID(), now: at })
    return { inserted: inserted !== undefined, mailQueued: mailFor !== undefined }
  })
  const adds = createGroupCommit<WaitlistRow, AddResult>((rows) => {
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

  const breeds = createSqliteBreeds(db, run)

  return {
    add: (row) => (closed ? Promise.reject(new StoreUnavailableError('the SQLite store is closed')) : adds.submit(row)),
    count: ({ since }: Pick<ListOptions, 'since'> = {}) => run(() => Number(countSince.get({ since: toSqliteTime(since) }))),
    list: ({ afterId = 0, limit, search, since }: ListOptions) =>
      run(() => (listAfter.all({ afterId, limit, search: search || null, since: toSqliteTime(since) }) as SignUpRow[]).map(toSignUp)),
    stats: () =>
      run(() => {
        const days = perDay.all() as { day: string; count: number }[]
        return {
          total: days.reduce((sum, d) => sum + d.count, 0),
          perDay: days,
          perSource: perSource.all() as { source: string | null; count: number }[],
        }
      }),
    remove: (email, audit) => run(() => removeAudited(email, audit)),
    ping: () => run(() => void ping.get()),
    // One process per SQLite file: counting in memory is counting for the whole deployment.
    counters: createMemoryCounters(),
    visitors: createVisitors(db, run),
    outbox: createOutbox(db, run),
    campaigns: createSqliteCampaigns(db, run, growth, breeds),
    breeds,
    suppressions: createSqliteSuppressions(db, run),
    deliverability: createSqliteDeliverability(db, run),
    growth,
    team: createSqliteTeam(db, run),
    webhooks: createSqliteWebhooks(db, run),
    segments: (breed) => run(() => sqliteDemandMap(db, growth, breed ?? null)),
    close: async () => {
      if (closed) return
      closed = true
      clearInterval(forgetPastDays)
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

type Run = <T>(work: () => T) => Promise<T>

/** The start and end (exclusive) of the UTC day of a moment, as stored moments compare. */
function utcDay(at: string): { start: string; end: string } {
  const start = `${at.slice(0, 10)}T00:00:00.000Z`
  return { start, end: new Date(Date.parse(start) + 86_400_000).toISOString() }
}

function createVisitors(db: Database.Database, run: Run): VisitorStore {
  const byToken = db.prepare(
    `SELECT waitlist.id, email, waitlist.created_at, confirmed_at, unsubscribed_at, invite_code, locale
     FROM page_tokens JOIN waitlist ON waitlist.id = page_tokens.signup_id WHERE token_hash = ?`,
  )
  const before = db.prepare('SELECT confirmed_at, invited_by FROM waitlist WHERE id = ?')
  const setConfirmed = db.prepare(
    'UPDATE waitlist SET confirmed_at = coalesce(confirmed_at, @now), invite_code = coalesce(invite_code, @code) WHERE id = @id',
  )
  const inviterSubscribed = db.prepare('SELECT unsubscribed_at IS NULL FROM waitlist WHERE id = ?').pluck()
  const creditsBetween = db
    .prepare('SELECT count(*) FROM waitlist WHERE invited_by = @inviter AND invite_credited_at >= @start AND invite_credited_at < @end')
    .pluck()
  const credit = db.prepare('UPDATE waitlist SET invite_credited_at = @now WHERE id = @id')
  // One transaction: the confirmation, the code, and the inviter's credit decided together.
  const confirm = db.transaction((id: number) => {
    const row = before.get(id) as { confirmed_at: string | null; invited_by: number | null } | undefined
    if (!row) return
    const at = now()
    setConfirmed.run({ id, now: at, code: newInviteCode() })
    if (row.confirmed_at !== null || row.invited_by === null) return
    if (inviterSubscribed.get(row.invited_by) !== 1) return
    if (Number(creditsBetween.get({ inviter: row.invited_by, ...utcDay(at) })) >= DAILY_INVITE_CREDITS) return
    credit.run({ id, now: at })
  })
  const inviteCounts = db.prepare('SELECT count(*) AS joined, count(invite_credited_at) AS confirmed FROM waitlist WHERE invited_by = ?')
  const inviteCode = db.prepare('SELECT invite_code FROM waitlist WHERE id = ?').pluck()
  const profiles = createSqliteProfiles(db)
  const setLocale = db.prepare('UPDATE waitlist SET locale = @locale WHERE id = @id')
  const subscribe = db.prepare('UPDATE waitlist SET unsubscribed_at = NULL WHERE id = ?')
  const unsubscribe = db.prepare('UPDATE waitlist SET unsubscribed_at = coalesce(unsubscribed_at, @now) WHERE id = @id')
  // Mails not yet under way are not sent to an address that stopped e-mails.
  const dropQueued = db.prepare(
    `UPDATE outbox SET state = 'failed', token = NULL, last_error = 'unsubscribed' WHERE signup_id = ? AND state = 'queued'`,
  )
  const remove = db.prepare('DELETE FROM waitlist WHERE id = ?')
  const signup = db.prepare(`SELECT ${SIGNUP_COLUMNS}, confirmation_queued_at FROM waitlist WHERE id = ?`)
  const mails = db.prepare('SELECT kind, state, attempts, created_at, sent_at FROM outbox WHERE signup_id = ? ORDER BY id')
  const links = db.prepare('SELECT count(*) FROM page_tokens WHERE signup_id = ?').pluck()
  return {
    byToken: (tokenHash) =>
      run(() => {
        const row = byToken.get(tokenHash) as Omit<Visitor, 'profile'> | undefined
        const profile = row && profiles.read(row.id)
        return row && profile ? { ...row, profile } : undefined
      }),
    confirm: (id) => run(() => confirm.immediate(id)),
    invites: (id) => run(() => inviteCounts.get(id) as InviteCounts),
    saveProfile: (id, profile) => run(() => profiles.save(id, profile)),
    setLocale: (id, locale) => run(() => void setLocale.run({ id, locale })),
    setSubscribed: (id, subscribed) =>
      run(() =>
        db.transaction(() => {
          if (subscribed) subscribe.run(id)
          else {
            unsubscribe.run({ id, now: now() })
            dropQueued.run(id)
          }
        })(),
      ),
    remove: (id) => run(() => void remove.run(id)),
    data: (id) =>
      run(() => {
        const row = signup.get(id) as (SignUpRow & { confirmation_queued_at: string | null }) | undefined
        if (!row) throw new Error(`no sign-up ${id}`)
        return {
          signup: { ...row, breeds: JSON.parse(row.breeds) as string[] },
          mails: mails.all(id) as VisitorData['mails'],
          page_links: Number(links.get(id)),
          invite: { code: (inviteCode.get(id) as string | null) ?? null, ...(inviteCounts.get(id) as InviteCounts) },
          profile: profiles.read(id) ?? { role: null, breeds: [], country: null, club: null, litters: null },
        }
      }),
  }
}

/**
 * The next mails due, in the outbox's order (campaigns last: confirmations and operators' links
 * first; then the longest due), walked from the index in that order (db/sqlite/008) until the
 * batch is full, then joined to their addresses: a sign-up's, or an operator link's. Exported for
 * the test of its plan (tests/api/outbox-claim-plan.test.ts).
 */
export const CLAIM_SQL = `WITH due AS (
    SELECT id FROM outbox
    WHERE state IN ('queued', 'sending')
      AND ((state = 'queued' AND next_attempt_at <= @now) OR (state = 'sending' AND lease_until <= @now))
      AND (campaign_id IS NULL OR campaign_id IN (SELECT id FROM campaigns WHERE status = 'sending'))
        ORDER BY kind = 'campaign', next_attempt_at, id
    LIMIT @limit
  )
  SELECT outbox.id, kind, campaign_id, message_key, attempts, outbox.created_at, token, link_id, outbox.signup_id, note,
    coalesce(waitlist.email, operator_links.email, operators.email) AS email, coalesce(waitlist.locale, 'en') AS locale
  FROM due JOIN outbox ON outbox.id = due.id
    LEFT JOIN waitlist ON waitlist.id = outbox.signup_id
    LEFT JOIN operator_links ON operator_links.id = outbox.link_id
    LEFT JOIN operators ON operators.id = outbox.operator_id
  ORDER BY kind = 'campaign', next_attempt_at, outbox.id`

function createOutbox(db: Database.Database, run: Run): OutboxStore {
  // One process per file: whatever was being sent when it last stopped is due again now.
  db.prepare(`UPDATE outbox SET state = 'queued', lease_until = NULL WHERE state = 'sending'`).run()
  const due = db.prepare(CLAIM_SQL)
  const lease = db.prepare(
    `UPDATE outbox SET state = 'sending', lease_until = @leaseUntil, attempts = attempts + 1, token = @token WHERE id = @id`,
  )
  const addToken = db.prepare('INSERT INTO page_tokens (token_hash, signup_id) SELECT @hash, signup_id FROM outbox WHERE id = @id')
  // An operator's link gets its token the same way: only its hash is kept, on the link.
  const addLinkToken = db.prepare('UPDATE operator_links SET token_hash = @hash WHERE id = (SELECT link_id FROM outbox WHERE id = @id)')
  const claim = db.transaction((limit: number, leaseMs: number): ClaimedMail[] => {
    const at = now()
    const leaseUntil = new Date(Date.parse(at) + leaseMs).toISOString()
    type Due = {
      id: number
      kind: ClaimedMail['kind']
      campaign_id: number | null
      link_id: number | null
      signup_id: number | null
      note: string | null
      message_key: string
      attempts: number
      created_at: string
      token: string | null
      email: string
      locale: Locale
    }
    return (due.all({ now: at, limit }) as Due[]).map((mail) => {
      // The mail's token is made when it is first claimed and kept until it is sent, so a resend is the same message.
      const token = mail.token ?? newToken()
      // An operator's notice links to nothing of theirs: it has no token to keep.
      if (mail.token === null && (mail.signup_id !== null || mail.link_id !== null))
        (mail.link_id === null ? addToken : addLinkToken).run({ hash: hashToken(token), id: mail.id })
      lease.run({ id: mail.id, leaseUntil, token })
      return {
        id: mail.id,
        kind: mail.kind,
        campaignId: mail.campaign_id,
        messageKey: mail.message_key,
        attempt: mail.attempts + 1,
        createdAt: mail.created_at,
        token,
        to: mail.email,
        locale: mail.locale,
        note: mail.note === null ? null : (JSON.parse(mail.note) as Record<string, unknown>),
      }
    })
  })
  const sent = db.prepare(
    `UPDATE outbox SET state = 'sent', sent_at = @now, token = NULL, lease_until = NULL, last_error = NULL WHERE id = @id`,
  )
  // The mails sent in one event-loop turn are recorded in one transaction (one fsync for all).
  const markBatch = db.transaction((ids: readonly number[]) => {
    const at = now()
    for (const id of ids) sent.run({ id, now: at })
  })
  const sentMarks = createGroupCommit<number, void>((ids) => {
    try {
      markBatch(ids)
    } catch (error) {
      throw toStoreError(error)
    }
    return ids.map(() => ({ ok: true, value: undefined }))
  })
  const retry = db.prepare(
    `UPDATE outbox SET state = 'queued', next_attempt_at = @at, lease_until = NULL, last_error = @error WHERE id = @id`,
  )
  const giveUp = db.prepare(`UPDATE outbox SET state = @state, token = NULL, lease_until = NULL, last_error = @error WHERE id = @id`)
  const extend = db.prepare(`UPDATE outbox SET lease_until = @leaseUntil WHERE id = @id AND state = 'sending'`)
  const extendAll = db.transaction((ids: readonly number[], leaseUntil: string) => {
    for (const id of ids) extend.run({ id, leaseUntil })
  })
  const counts = db.prepare('SELECT state, count(*) AS n FROM outbox GROUP BY state')
  const nextDue = db
    .prepare(
      `SELECT min(CASE WHEN state = 'queued' THEN next_attempt_at ELSE lease_until END) FROM outbox WHERE state IN ('queued', 'sending')`,
    )
    .pluck()
  return {
    claim: (limit, leaseMs) => run(() => claim(limit, leaseMs)),
    extendLease: (ids, leaseMs) => run(() => extendAll(ids, new Date(Date.now() + leaseMs).toISOString())),
    markSent: (id) => sentMarks.submit(id),
    retryAt: (id, at, error) => run(() => void retry.run({ id, at, error })),
    giveUp: (id, state, error) => run(() => void giveUp.run({ id, state, error })),
    counts: () =>
      run(() => {
        const found = new Map((counts.all() as { state: MailState; n: number }[]).map((r) => [r.state, r.n]))
        return Object.fromEntries(MAIL_STATES.map((state) => [state, found.get(state) ?? 0])) as Record<MailState, number>
      }),
    nextDue: () => run(() => (nextDue.get() as string | null) ?? null),
  }
}

/** How many inviters the demand map lists. */
/** The growth store, and what the other parts of this store ask of it inside their own transactions. */
export interface SqliteGrowth extends GrowthStore {
  targetsNow(): ReturnType<typeof storedTargets>
  countsNow(): CountryCount[]
  readyNow(): string[]
  topInvitersNow(limit: number): { id: number; email: string; joined: number; confirmed: number }[]
  forgetPastDaysNow(): void
}

/** How many visitors a day is remembered for (in memory); past that, views still count, visitors not. */
const MAX_VISITORS_A_DAY = 1_000_000

function createGrowth(db: Database.Database, run: Run): SqliteGrowth {
  const writeAudit = auditWriter(db)
  const setting = db.prepare('SELECT value FROM settings WHERE key = ?').pluck()
  const putSetting = db.prepare(
    `INSERT INTO settings (key, value, updated_at) VALUES (@key, @value, @now)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  )
  const counts = db.prepare(
    `SELECT country, count(*) AS confirmed, coalesce(sum(role = 'breeder'), 0) AS breeders, coalesce(sum(role = 'owner'), 0) AS owners
     FROM waitlist WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL AND country IS NOT NULL
       AND (@country IS NULL OR country = @country)
     GROUP BY country ORDER BY confirmed DESC, country`,
  )
  const waiting = db.prepare('SELECT count(*) FROM waitlist WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL').pluck()
  const topInviters = db.prepare(
    `SELECT inviter.id, inviter.email, count(*) AS joined, count(invitee.invite_credited_at) AS confirmed
     FROM waitlist AS invitee JOIN waitlist AS inviter ON inviter.id = invitee.invited_by
     GROUP BY inviter.id ORDER BY confirmed DESC, joined DESC, inviter.id LIMIT ?`,
  )
  const addView = db.prepare(
    `INSERT INTO page_views (day, source, views, visitors) VALUES (@day, @source, @views, @visitors)
     ON CONFLICT (day, source) DO UPDATE SET views = views + excluded.views, visitors = visitors + excluded.visitors`,
  )
  const viewsPerDay = db.prepare(
    'SELECT day, sum(views) AS views, sum(visitors) AS visitors FROM page_views WHERE day >= @since AND day <= @until GROUP BY day',
  )
  const viewsPerSource = db.prepare(
    'SELECT source, sum(views) AS views, sum(visitors) AS visitors FROM page_views WHERE day >= @since AND day <= @until GROUP BY source',
  )
  // Each day's sign-ups as a cohort: how many of them went on to confirm, to tell their profile, to bring a confirmed sign-up.
  const cohortsPerDay = db.prepare(
    `SELECT substr(created_at, 1, 10) AS day, count(*) AS signups, count(confirmed_at) AS confirmed,
       coalesce(sum(role IS NOT NULL OR country IS NOT NULL OR breeds <> '[]'), 0) AS profiled,
       coalesce(sum(EXISTS (SELECT 1 FROM waitlist AS invitee WHERE invitee.invited_by = waitlist.id AND invitee.confirmed_at IS NOT NULL)), 0) AS inviters
     FROM waitlist WHERE created_at >= @start AND created_at < @end AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed)) GROUP BY day`,
  )
  const cohortsPerSource = db.prepare(
    `SELECT coalesce(utm_source, referrer, '${DIRECT_SOURCE}') AS source, count(*) AS signups, count(confirmed_at) AS confirmed
     FROM waitlist WHERE created_at >= @start AND created_at < @end AND (@breed IS NULL OR EXISTS (SELECT 1 FROM signup_breeds WHERE signup_breeds.signup_id = waitlist.id AND signup_breeds.breed = @breed)) GROUP BY 1`,
  )
  // The day's key and the hashes seen: this process's memory only (one process per SQLite file).
  const keys = new Map<string, Buffer>()
  const seen = new Map<string, Set<string>>()
  const addViews = db.transaction((batch: readonly ViewBatch[]) => {
    for (const entry of batch) {
      let day = seen.get(entry.day)
      if (!day) seen.set(entry.day, (day = new Set()))
      let visitors = 0
      for (const hash of entry.visitors) {
        const key = hash.toString('base64')
        if (day.has(key) || day.size >= MAX_VISITORS_A_DAY) continue
        day.add(key)
        visitors++
      }
      addView.run({ day: entry.day, source: entry.source, views: entry.views, visitors })
    }
  })
  const targetsNow = () => storedTargets(setting.get(LAUNCH_TARGETS_KEY))
  const countsNow = (country: string | null = null) => counts.all({ country }) as CountryCount[]
  const topInvitersNow = (limit: number) => topInviters.all(limit) as { id: number; email: string; joined: number; confirmed: number }[]
  const forgetPastDaysNow = () => {
    const today = new Date().toISOString().slice(0, 10)
    for (const day of [...keys.keys()]) if (day < today) keys.delete(day)
    for (const day of [...seen.keys()]) if (day < today) seen.delete(day)
  }
  return {
    targetsNow,
    countsNow,
    readyNow: () => readyCountries(countsNow(), targetsNow()),
    topInvitersNow,
    forgetPastDaysNow,
    forgetPastDays: async () => forgetPastDaysNow(),
    launchTargets: () => run(targetsNow),
    setLaunchTargets: (targets, audit) =>
      run(() =>
        db.transaction(() => {
          putSetting.run({ key: LAUNCH_TARGETS_KEY, value: JSON.stringify(targets), now: now() })
          if (audit) writeAudit(audit)
        })(),
      ),
    countryCounts: (country) => run(() => countsNow(country ?? null)),
    waiting: () => run(() => Number(waiting.get())),
    visitorKey: async (day) => {
      forgetPastDaysNow()
      let key = keys.get(day)
      if (!key) keys.set(day, (key = randomBytes(32)))
      return key
    },
    addViews: (batch) =>
      run(() => {
        forgetPastDaysNow()
        addViews(batch)
      }),
    funnel: (since, until, breed = null) =>
      run(() => {
        const range = { since, until, start: `${since}T00:00:00.000Z`, end: utcDay(`${until}T00:00:00.000Z`).end, breed }
        return funnelOf(
          viewsPerDay.all(range) as Pick<FunnelDay, 'day' | 'views' | 'visitors'>[],
          viewsPerSource.all(range) as Pick<FunnelSource, 'source' | 'views' | 'visitors'>[],
          cohortsPerDay.all(range) as Omit<FunnelDay, 'views' | 'visitors'>[],
          cohortsPerSource.all(range) as Pick<FunnelSource, 'source' | 'signups' | 'confirmed'>[],
          since,
          until,
        )
      }),
    topInviters: (limit) => run(() => topInvitersNow(limit)),
  }
}
