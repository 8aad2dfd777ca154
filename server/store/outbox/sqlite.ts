// The outbox in SQLite (docs/decisions/011-the-outbox.md): mails claimed under a lease in the
// outbox's order, marked sent in group commits, retried, given up; its counts by state.
import type Database from 'better-sqlite3'
import type { Locale } from '../../../contract/locales.js'
import type { Platform } from '../../../contract/app.js'
import { hashToken, newAppCode, newToken } from '../../secrets.js'
import { createGroupCommit } from '../shared/group-commit.js'
import { now, type Run, toStoreError } from '../shared/sqlite.js'
import type { SqliteTallies } from '../tallies/sqlite.js'
import type { ClaimedMail, OutboxStore } from '../types.js'
import { FIGURES_TALLIES, mailFiguresOf, stateCounts } from './shared.js'

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
    coalesce(waitlist.email, operator_links.email, operators.email) AS email,
    coalesce(waitlist.locale, operator_links.locale, link_operators.locale, operators.locale, 'en') AS locale,
    waitlist.platform, waitlist.import_id IS NOT NULL AND waitlist.confirmed_at IS NULL AS unconfirmed_import
  FROM due JOIN outbox ON outbox.id = due.id
    LEFT JOIN waitlist ON waitlist.id = outbox.signup_id
    LEFT JOIN operator_links ON operator_links.id = outbox.link_id
    LEFT JOIN operators AS link_operators ON link_operators.id = operator_links.operator_id
    LEFT JOIN operators ON operators.id = outbox.operator_id
  ORDER BY kind = 'campaign', next_attempt_at, outbox.id`

export function createSqliteOutbox(db: Database.Database, run: Run, tallies: SqliteTallies): OutboxStore {
  // One process per file: whatever was being sent when it last stopped is due again now.
  db.prepare(`UPDATE outbox SET state = 'queued', lease_until = NULL WHERE state = 'sending'`).run()
  const due = db.prepare(CLAIM_SQL)
  const lease = db.prepare(
    `UPDATE outbox SET state = 'sending', lease_until = @leaseUntil, attempts = attempts + 1, token = @token WHERE id = @id`,
  )
  const addToken = db.prepare('INSERT INTO page_tokens (token_hash, signup_id) SELECT @hash, signup_id FROM outbox WHERE id = @id')
  // An operator's link gets its token the same way: only its hash is kept, on the link.
  const addLinkToken = db.prepare('UPDATE operator_links SET token_hash = @hash WHERE id = (SELECT link_id FROM outbox WHERE id = @id)')
  // A sign-up's app link is made with its first campaign mail (docs/decisions/022-into-the-app.md).
  const appCode = db.prepare('SELECT code FROM app_links WHERE signup_id = ?').pluck()
  const makeAppLink = db.prepare('INSERT INTO app_links (signup_id, code, created_at) VALUES (@signupId, @code, @now)')
  const appCodeFor = (signupId: number, at: string): string => {
    const known = appCode.get(signupId) as string | undefined
    if (known !== undefined) return known
    const code = newAppCode()
    makeAppLink.run({ signupId, code, now: at })
    return code
  }
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
      platform: Platform | null
      unconfirmed_import: number | null
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
        app: mail.kind === 'campaign' && mail.signup_id !== null ? { code: appCodeFor(mail.signup_id, at), platform: mail.platform } : null,
        unconfirmedImport: mail.unconfirmed_import === 1,
      }
    })
  })
  const sent = db.prepare(
    `UPDATE outbox SET state = 'sent', sent_at = @now, token = NULL, lease_until = NULL, last_error = NULL WHERE id = @id`,
  )
  // A mail that held its recipient's app link counts them invited, once (the trigger counts it).
  const invited = db.prepare(
    'UPDATE app_links SET invited_at = @now WHERE signup_id = (SELECT signup_id FROM outbox WHERE id = @id) AND invited_at IS NULL',
  )
  // The mails sent in one event-loop turn are recorded in one transaction (one fsync for all).
  const markBatch = db.transaction((marks: readonly { id: number; heldAppLink: boolean }[]) => {
    const at = now()
    for (const { id, heldAppLink } of marks) {
      sent.run({ id, now: at })
      if (heldAppLink) invited.run({ id, now: at })
    }
  })
  const sentMarks = createGroupCommit<{ id: number; heldAppLink: boolean }, void>((marks) => {
    try {
      markBatch(marks)
    } catch (error) {
      throw toStoreError(error)
    }
    return marks.map(() => ({ ok: true, value: undefined }))
  })
  const retry = db.prepare(
    `UPDATE outbox SET state = 'queued', next_attempt_at = @at, lease_until = NULL, last_error = @error WHERE id = @id`,
  )
  const giveUp = db.prepare(`UPDATE outbox SET state = @state, token = NULL, lease_until = NULL, last_error = @error WHERE id = @id`)
  const extend = db.prepare(`UPDATE outbox SET lease_until = @leaseUntil WHERE id = @id AND state = 'sending'`)
  const extendAll = db.transaction((ids: readonly number[], leaseUntil: string) => {
    for (const id of ids) extend.run({ id, leaseUntil })
  })
  const nextDue = db
    .prepare(
      `SELECT min(CASE WHEN state = 'queued' THEN next_attempt_at ELSE lease_until END) FROM outbox WHERE state IN ('queued', 'sending')`,
    )
    .pluck()
  return {
    claim: (limit, leaseMs) => run(() => claim(limit, leaseMs)),
    extendLease: (ids, leaseMs) => run(() => extendAll(ids, new Date(Date.now() + leaseMs).toISOString())),
    markSent: (id, heldAppLink = false) => sentMarks.submit({ id, heldAppLink }),
    retryAt: (id, at, error) => run(() => void retry.run({ id, at, error })),
    giveUp: (id, state, error) => run(() => void giveUp.run({ id, state, error })),
    counts: () => run(() => stateCounts(tallies.readNow(['outbox']))),
    figures: () => run(() => mailFiguresOf(tallies.readNow(FIGURES_TALLIES))),
    nextDue: () => run(() => (nextDue.get() as string | null) ?? null),
  }
}
