// Sign-ups in PostgreSQL, the same as signups/sqlite.ts: the rows of one event-loop turn in one statement and one commit.
import type pg from 'pg'
import { everyoneOf, PEOPLE_TALLIES, peopleOf, SIGNUP_TALLIES, statsOf } from '../tallies/people.js'
import { readTallies } from '../tallies/postgres.js'
import type { SignUp } from '../../../contract/admin-api.js'
import { mailboxKey } from '../../growth/mailbox.js'
import { createGroupCommit, type Outcome } from '../shared/group-commit.js'
import { inTransaction, iso, type Run, toStoreError, writeAudit } from '../shared/postgres.js'
import {
  type AddResult,
  CONFIRMATION_INTERVAL_MS,
  type ListOptions,
  StoreUnavailableError,
  TOP_SOURCES,
  type WaitlistRow,
  type WaitlistStore,
} from '../types.js'
import { SIGNUP_MAIL_COLUMNS } from './mail-columns.js'

// `id` is read as text (bigint may exceed a JS number's exact range in theory) and converted
// below; queries must order by `waitlist.id`, since a bare `id` would mean this text alias.
/** A moment as ISO 8601 text in UTC, as the SQLite store keeps them. */
export const SIGNUP_COLUMNS = `waitlist.id::text AS id, email, ${iso('waitlist.created_at')} AS created_at,
  utm_source, utm_medium, utm_campaign, referrer, ${iso('confirmed_at')} AS confirmed_at,
  ${iso('unsubscribed_at')} AS unsubscribed_at, role, country, invited_by::int AS invited_by, locale, platform, partner_id AS partner,
  (SELECT ${iso('claimed_at')} FROM app_links WHERE app_links.signup_id = waitlist.id) AS claimed_at,
  ARRAY(SELECT name FROM signup_breeds WHERE signup_id = waitlist.id ORDER BY position) AS breeds,
  (SELECT inviter.email FROM waitlist AS inviter WHERE inviter.id = waitlist.invited_by) AS invited_by_email,
  (SELECT count(*)::int FROM waitlist AS invitee WHERE invitee.invited_by = waitlist.id AND invitee.invite_credited_at IS NOT NULL) AS invites_confirmed,
  waitlist.import_id::int AS import_id, (SELECT basis FROM imports WHERE imports.id = waitlist.import_id) AS import_basis,
  (SELECT ${iso('started_at')} FROM imports WHERE imports.id = waitlist.import_id) AS imported_at`

/**
 * The sign-ups of one batch in one statement, each with its confirmation mail when one is due: a
 * new address, or a known one still unconfirmed, not unsubscribed, with none queued for a day
 * (the form is no way to flood an inbox). One commit for all of it.
 */
const ADD_SIGNUPS = `
  WITH input AS (
        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $7::text[], $8::text[], $9::text[], $10::int[]) WITH ORDINALITY
      AS i(email, utm_source, utm_medium, utm_campaign, referrer, invite, locale, platform, partner_id, n)
  ), inserted AS (
    INSERT INTO waitlist (email, utm_source, utm_medium, utm_campaign, referrer, locale, platform, partner_id, invited_by, confirmation_queued_at)
    SELECT email, utm_source, utm_medium, utm_campaign, referrer, locale, platform, partner_id,
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

export function createPostgresSignups(
  pool: pg.Pool,
  run: Run,
): Pick<WaitlistStore, 'count' | 'list' | 'stats' | 'remove'> & {
  submit: (row: WaitlistRow) => Promise<AddResult>
  drain: () => Promise<void>
} {
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
        rows.map((row) => row.platform ?? null),
        rows.map((row) => row.partner ?? null),
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

  return {
    submit: (row) => adds.submit(row),
    drain: () => adds.drain(),
    // Everyone is a sum of the people tallies (db/postgres/017); since a time, the rows (by their index).
    count: ({ since }: Pick<ListOptions, 'since'> = {}) =>
      run(async () => {
        if (!since) return everyoneOf(peopleOf(await readTallies(pool, PEOPLE_TALLIES)))
        const result = await pool.query<{ n: string }>('SELECT count(*) AS n FROM waitlist WHERE created_at >= $1', [since])
        return Number(result.rows[0]?.n ?? 0)
      }),
    list: ({ afterId = 0, limit, search, since }: ListOptions) =>
      run(async () => {
        const result = await pool.query<SignUp & { id: string }>(
          `SELECT ${SIGNUP_COLUMNS}, ${SIGNUP_MAIL_COLUMNS} FROM waitlist
           WHERE waitlist.id > $1
             AND ($3::text IS NULL OR strpos(lower(email), lower($3)) > 0)
             AND ($4::timestamptz IS NULL OR waitlist.created_at >= $4)
           ORDER BY waitlist.id LIMIT $2`,
          [afterId, limit, search || null, since ?? null],
        )
        return result.rows.map((row) => ({ ...row, id: Number(row.id) }))
      }),
    stats: () => run(async () => statsOf(await readTallies(pool, SIGNUP_TALLIES), TOP_SOURCES)),
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
  }
}
