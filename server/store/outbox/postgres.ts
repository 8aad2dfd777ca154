// The outbox in PostgreSQL, the same as outbox/sqlite.ts; instances claim rows with FOR UPDATE SKIP LOCKED.
import type pg from 'pg'
import type { Locale } from '../../../contract/locales.js'
import type { Platform } from '../../../contract/app.js'
import { hashToken, newAppCode, newToken } from '../../secrets.js'
import { createGroupCommit } from '../shared/group-commit.js'
import { inTransaction, iso, type Run } from '../shared/postgres.js'
import { readTallies } from '../tallies/postgres.js'
import type { ClaimedMail, OutboxStore } from '../types.js'
import { FIGURES_TALLIES, mailFiguresOf, stateCounts } from './shared.js'

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
    coalesce(waitlist.locale, operator_links.locale, link_operators.locale, operators.locale, 'en') AS locale,
    signup_id::text AS signup_id, link_id, note, waitlist.platform,
    coalesce(waitlist.import_id IS NOT NULL AND waitlist.confirmed_at IS NULL, false) AS unconfirmed_import
  FROM due JOIN outbox ON outbox.id = due.id
    LEFT JOIN waitlist ON waitlist.id = outbox.signup_id
    LEFT JOIN operator_links ON operator_links.id = outbox.link_id
    LEFT JOIN operators AS link_operators ON link_operators.id = operator_links.operator_id
    LEFT JOIN operators ON operators.id = outbox.operator_id
  ORDER BY kind = 'campaign', next_attempt_at, outbox.id`

export function createPostgresOutbox(pool: pg.Pool, run: Run): OutboxStore {
  // The mails sent in one event-loop turn are recorded in one transaction (one commit for all). A
  // mail that held its recipient's app link counts them invited, once (the trigger counts it): their
  // links' rows are locked in the ids' order, so two instances never wait on each other in two orders.
  const sentMarks = createGroupCommit<{ id: number; heldAppLink: boolean }, void>(async (marks) => {
    const held = marks.filter((mark) => mark.heldAppLink).map((mark) => mark.id)
    await run(() =>
      inTransaction(pool, async (client) => {
        await client.query(
          `UPDATE outbox SET state = 'sent', sent_at = now(), token = NULL, lease_until = NULL, last_error = NULL WHERE id = ANY($1::bigint[])`,
          [marks.map((mark) => mark.id)],
        )
        if (held.length === 0) return
        await client.query(
          `UPDATE app_links SET invited_at = now()
           WHERE invited_at IS NULL AND signup_id IN (
             SELECT app_links.signup_id FROM app_links JOIN outbox ON outbox.signup_id = app_links.signup_id
             WHERE outbox.id = ANY($1::bigint[]) AND app_links.invited_at IS NULL ORDER BY app_links.signup_id FOR UPDATE OF app_links)`,
          [held],
        )
      }),
    )
    return marks.map(() => ({ ok: true as const, value: undefined }))
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
    platform: Platform | null
    unconfirmed_import: boolean
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
          // A sign-up's app link is made with its first campaign mail (docs/decisions/022-into-the-app.md);
          // in the ids' order, so two instances making links never wait on each other in two orders.
          const recipients = [
            ...new Set(due.rows.flatMap((mail) => (mail.kind === 'campaign' && mail.signup_id !== null ? [mail.signup_id] : []))),
          ].sort((a, b) => Number(a) - Number(b))
          const codes = new Map<string, string>()
          if (recipients.length > 0) {
            await client.query(
              `INSERT INTO app_links (signup_id, code) SELECT t.id, t.code FROM unnest($1::bigint[], $2::text[]) AS t(id, code)
               ON CONFLICT (signup_id) DO NOTHING`,
              [recipients, recipients.map(() => newAppCode())],
            )
            const made = await client.query<{ signup_id: string; code: string }>(
              'SELECT signup_id::text, code FROM app_links WHERE signup_id = ANY($1::bigint[])',
              [recipients],
            )
            for (const row of made.rows) codes.set(row.signup_id, row.code)
          }
          const appOf = (mail: Due): ClaimedMail['app'] => {
            const code = mail.kind === 'campaign' && mail.signup_id !== null ? codes.get(mail.signup_id) : undefined
            return code === undefined ? null : { code, platform: mail.platform }
          }
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
            app: appOf(mail),
            unconfirmedImport: mail.unconfirmed_import,
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
    markSent: (id, heldAppLink = false) => sentMarks.submit({ id, heldAppLink }),
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
    counts: () => run(async () => stateCounts(await readTallies(pool, ['outbox']))),
    figures: () => run(async () => mailFiguresOf(await readTallies(pool, FIGURES_TALLIES))),
    nextDue: () =>
      run(async () => {
        const result = await pool.query<{ at: string | null }>(
          `SELECT ${iso(`min(CASE WHEN state = 'queued' THEN next_attempt_at ELSE lease_until END)`)} AS at FROM outbox WHERE state IN ('queued', 'sending')`,
        )
        return result.rows[0]?.at ?? null
      }),
  }
}
