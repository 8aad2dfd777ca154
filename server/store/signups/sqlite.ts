// Sign-ups in SQLite: the insert (group commit: the rows of one event-loop turn in one transaction,
// each with its confirmation mail when one is due), the list, the counts, and deletion.
import type Database from 'better-sqlite3'
import type { SqliteRead } from '../shared/sqlite-reader.js'
import { randomUUID } from 'node:crypto'
import type { SignUp } from '../../../contract/admin-api.js'
import { mailboxKey } from '../../growth/mailbox.js'
import { createGroupCommit, type Outcome } from '../shared/group-commit.js'
import { auditWriter, now, type Run, toSqliteTime, toStoreError } from '../shared/sqlite.js'
import {
  type AddResult,
  type AuditEntry,
  CONFIRMATION_INTERVAL_MS,
  type ListOptions,
  TOP_SOURCES,
  type WaitlistRow,
  type WaitlistStore,
} from '../types.js'
import { everyoneOf, PEOPLE_TALLIES, peopleOf, SIGNUP_TALLIES, statsOf } from '../tallies/people.js'
import type { SqliteTallies } from '../tallies/sqlite.js'
import { SIGNUP_MAIL_COLUMNS } from './mail-columns.js'

export const SIGNUP_COLUMNS = `waitlist.id, email, waitlist.created_at, utm_source, utm_medium, utm_campaign, referrer,
    confirmed_at, unsubscribed_at, role, country, invited_by, locale, platform, partner_id AS partner,
  (SELECT claimed_at FROM app_links WHERE app_links.signup_id = waitlist.id) AS claimed_at,
  (SELECT json_group_array(name) FROM (SELECT name FROM signup_breeds WHERE signup_id = waitlist.id ORDER BY position)) AS breeds,
  (SELECT inviter.email FROM waitlist AS inviter WHERE inviter.id = waitlist.invited_by) AS invited_by_email,
  (SELECT count(*) FROM waitlist AS invitee WHERE invitee.invited_by = waitlist.id AND invitee.invite_credited_at IS NOT NULL) AS invites_confirmed,
  waitlist.import_id, (SELECT basis FROM imports WHERE imports.id = waitlist.import_id) AS import_basis,
  (SELECT started_at FROM imports WHERE imports.id = waitlist.import_id) AS imported_at`

export type SignUpRow = Omit<SignUp, 'breeds'> & { breeds: string }
/** breeds: the names of the profile's rows, in their order (a JSON array in SQLite). */
export const toSignUp = (row: SignUpRow): SignUp => ({ ...row, breeds: JSON.parse(row.breeds) as string[] })

/** SQLite's lower(): ASCII letters only, as the unique index on lower(email) compares addresses. */
const sqliteLower = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())

export function createSqliteSignups(
  db: Database.Database,
  run: Run,
  tallies: SqliteTallies,
  read: SqliteRead,
): Pick<WaitlistStore, 'count' | 'list' | 'stats' | 'remove'> & {
  submit: (row: WaitlistRow) => Promise<AddResult>
  drain: () => Promise<void>
} {
  const insert = db.prepare(
    `INSERT INTO waitlist (email, utm_source, utm_medium, utm_campaign, referrer, invited_by, locale, platform, partner_id, confirmation_queued_at)
     VALUES (@email, @utm_source, @utm_medium, @utm_campaign, @referrer, @invitedBy, @locale, @platform, @partner, @now)
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
  const LIST_AFTER = `SELECT ${SIGNUP_COLUMNS}, ${SIGNUP_MAIL_COLUMNS} FROM waitlist
     WHERE id > @afterId
       AND (@search IS NULL OR instr(lower(email), lower(@search)) > 0)
       AND created_at >= @since
     ORDER BY id LIMIT @limit`
  const listAfter = db.prepare(LIST_AFTER)
  const removeEmail = db.prepare('DELETE FROM waitlist WHERE lower(email) = lower(?) RETURNING id').pluck()
  const writeAudit = auditWriter(db)
  // A deleted sign-up is named in the audit log by its id, never its address.
  const removeAudited = db.transaction((email: string, audit?: (id: number) => AuditEntry) => {
    const ids = removeEmail.all(email) as number[]
    if (audit) for (const id of ids) writeAudit(audit(id))
    return ids.length > 0
  })
  // Group commit: one transaction, one fsync, for the sign-ups of one event-loop turn. (One
  // transaction per sign-up spends nearly all its time in fsync: 3,000/s on this machine.)
  // The batch is written by two statements, not two per row: its rows as one JSON array through
  // json_each, then the confirmation mails of the rows that went in. Per row, the same work and
  // the same indexes, without a statement's run from JavaScript for each (docs/performance.md,
  // issue 23: 17 µs of statements per sign-up became 9). A batch the table refuses (a CHECK) is
  // written again row by row, so that only the bad row fails.
  const insertRows = db.prepare(
    `INSERT INTO waitlist (email, utm_source, utm_medium, utm_campaign, referrer, invited_by, locale, platform, partner_id, confirmation_queued_at)
     SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8, @now
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
        row.platform ?? null,
        row.partner ?? null,
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
    const platform = row.platform ?? null
    const inserted = insert.get({
      email,
      utm_source,
      utm_medium,
      utm_campaign,
      referrer,
      locale,
      platform,
      partner: row.partner ?? null,
      invitedBy: invitedByOf(row),
      now: at,
    }) as { id: number } | undefined
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

  return {
    submit: (row) => adds.submit(row),
    drain: () => adds.drain(),
    // Everyone is a sum of the people tallies (db/sqlite/017); since a time, the rows (by their index).
    count: ({ since }: Pick<ListOptions, 'since'> = {}) =>
      run(() => (!since ? everyoneOf(peopleOf(tallies.readNow(PEOPLE_TALLIES))) : Number(countSince.get({ since: toSqliteTime(since) })))),
    list: async ({ afterId = 0, limit, search, since, bulk }: ListOptions) => {
      const params = { afterId, limit, search: search || null, since: toSqliteTime(since) }
      const rows = bulk ? await read<SignUpRow>(LIST_AFTER, params) : await run(() => listAfter.all(params) as SignUpRow[])
      return rows.map(toSignUp)
    },
    stats: () => run(() => statsOf(tallies.readNow(SIGNUP_TALLIES), TOP_SOURCES)),
    remove: (email, audit) => run(() => removeAudited(email, audit)),
  }
}
