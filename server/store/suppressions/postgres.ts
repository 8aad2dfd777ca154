// Bounces, complaints and the suppression list in PostgreSQL (docs/decisions/019-suppression.md).
import type pg from 'pg'
import {
  type MailEventType,
  PAUSE_WINDOW,
  SOFT_BOUNCE_DAYS,
  SOFT_BOUNCES_TO_SUPPRESS,
  type Suppression,
} from '../../../contract/mail-events.js'
import { inTransaction, iso, type Run } from '../shared/postgres.js'
import { writeAudit } from '../shared/postgres.js'
import type { PauseRule, SuppressionStore } from '../types.js'
import { pauseReason } from './pause-rule.js'

const RECIPIENT = `SELECT outbox.id::int AS "outboxId", coalesce(waitlist.email, operator_links.email, operators.email) AS email FROM outbox
  LEFT JOIN waitlist ON waitlist.id = outbox.signup_id LEFT JOIN operator_links ON operator_links.id = outbox.link_id
  LEFT JOIN operators ON operators.id = outbox.operator_id`

/** The campaign of the event's mail, paused when its last deliveries say so (locked while judged); its id then. */
async function judge(
  client: pg.PoolClient,
  outboxId: number | null,
  type: MailEventType,
  rule: PauseRule | undefined,
): Promise<number | null> {
  if (!rule || outboxId === null || type === 'soft-bounce') return null
  const campaign = await client.query<{ id: number }>(
    `SELECT campaigns.id::int AS id FROM outbox JOIN campaigns ON campaigns.id = outbox.campaign_id
     WHERE outbox.id = $1 AND campaigns.status = 'sending' FOR UPDATE OF campaigns`,
    [outboxId],
  )
  const id = campaign.rows[0]?.id
  if (id === undefined) return null
  const window = await client.query<{ deliveries: number; hard: number; complaints: number }>(
    `WITH last AS (SELECT id FROM outbox WHERE campaign_id = $1 AND state IN ('sent', 'bounced') ORDER BY id DESC LIMIT ${PAUSE_WINDOW})
     SELECT (SELECT count(*) FROM last)::int AS deliveries,
       (SELECT count(DISTINCT outbox_id) FROM mail_events WHERE type = 'hard-bounce' AND outbox_id IN (SELECT id FROM last))::int AS hard,
       (SELECT count(DISTINCT outbox_id) FROM mail_events WHERE type = 'complaint' AND outbox_id IN (SELECT id FROM last))::int AS complaints`,
    [id],
  )
  const reason = pauseReason(window.rows[0] ?? { deliveries: 0, hard: 0, complaints: 0 }, rule)
  if (reason === null) return null
  // Only while some of it waits: a late bounce after its last mail left does not stop a finished wave.
  const paused = await client.query(
    `UPDATE campaigns SET status = 'paused', paused_reason = $2 WHERE id = $1 AND status = 'sending'
       AND EXISTS (SELECT 1 FROM outbox WHERE campaign_id = $1 AND state = 'queued')`,
    [id, reason],
  )
  if (paused.rowCount === 0) return null
  await writeAudit(client, {
    actorId: null,
    actor: 'deliverability',
    action: 'campaign paused',
    target: `campaign ${id}`,
    detail: { reason },
    requestId: null,
  })
  return id
}

export function createPostgresSuppressions(pool: pg.Pool, run: Run): SuppressionStore {
  return {
    key: () =>
      run(async () => {
        const result = await pool.query<{ value: string }>(`SELECT value #>> '{}' AS value FROM settings WHERE key = 'suppression_key'`)
        return result.rows[0]?.value ?? ''
      }),
    record: (event, rule) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const signup = await client.query<{ id: string }>('SELECT id::text FROM waitlist WHERE lower(email) = lower($1)', [event.email])
          const signupId = signup.rows[0]?.id ?? null
          const inserted = await client.query(
            `INSERT INTO mail_events (email_hash, signup_id, outbox_id, type, source, event_id) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (event_id) DO NOTHING`,
            [event.emailHash, signupId, event.outboxId, event.type, event.source, event.eventId],
          )
          if (inserted.rowCount === 0) return { recorded: false, suppressed: false, pausedCampaign: null }
          const pausedCampaign = await judge(client, event.outboxId, event.type, rule)
          let reason: string | null = event.type
          if (event.type === 'soft-bounce') {
            const soft = await client.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM mail_events WHERE email_hash = $1 AND type = 'soft-bounce' AND at >= now() - make_interval(days => $2)`,
              [event.emailHash, SOFT_BOUNCE_DAYS],
            )
            reason = (soft.rows[0]?.n ?? 0) >= SOFT_BOUNCES_TO_SUPPRESS ? 'soft-bounce' : null
          }
          if (reason === null) return { recorded: true, suppressed: false, pausedCampaign }
          await client.query(
            'INSERT INTO suppressions (email_hash, email, reason) VALUES ($1, $2, $3) ON CONFLICT (email_hash) DO NOTHING',
            [event.emailHash, signupId === null ? null : event.email.toLowerCase(), reason],
          )
          if (signupId !== null) {
            if (event.type === 'complaint')
              await client.query('UPDATE waitlist SET unsubscribed_at = coalesce(unsubscribed_at, now()) WHERE id = $1', [signupId])
            await client.query(
              `UPDATE outbox SET state = 'failed', token = NULL, last_error = 'suppressed' WHERE signup_id = $1 AND state = 'queued'`,
              [signupId],
            )
          }
          return { recorded: true, suppressed: true, pausedCampaign }
        }),
      ),
    suppressedAmong: (hashes) =>
      run(async () => {
        if (hashes.length === 0) return new Set<string>()
        const result = await pool.query<{ email_hash: string }>('SELECT email_hash FROM suppressions WHERE email_hash = ANY($1)', [hashes])
        return new Set(result.rows.map((row) => row.email_hash))
      }),
    relink: (entries) =>
      run(async () => {
        for (const entry of entries)
          await pool.query(
            `UPDATE suppressions SET email = $2 WHERE email_hash = $1 AND email IS NULL
               AND EXISTS (SELECT 1 FROM waitlist WHERE lower(waitlist.email) = $2)`,
            [entry.emailHash, entry.email.toLowerCase()],
          )
      }),
    messageOf: (messageKey) =>
      run(async () => {
        if (!/^[0-9a-f-]{36}$/i.test(messageKey)) return undefined // the column is a uuid
        return (await pool.query<{ outboxId: number; email: string }>(`${RECIPIENT} WHERE outbox.message_key = $1`, [messageKey])).rows[0]
      }),
    outboxOf: (id) =>
      run(async () => (await pool.query<{ outboxId: number; email: string }>(`${RECIPIENT} WHERE outbox.id = $1`, [id])).rows[0]),
    list: (query, limit) =>
      run(async () => {
        const result = await pool.query<Suppression>(
          `SELECT email, reason, ${iso('at')} AS at FROM suppressions WHERE $1::text IS NULL OR strpos(email, lower($1)) > 0
           ORDER BY suppressions.at DESC, email_hash LIMIT $2`,
          [query, limit],
        )
        return result.rows
      }),
    add: (email, emailHash, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const added = await client.query(
            `INSERT INTO suppressions (email_hash, email, reason) VALUES ($1, $2, 'manual') ON CONFLICT (email_hash) DO NOTHING`,
            [emailHash, email.toLowerCase()],
          )
          if ((added.rowCount ?? 0) > 0 && audit) await writeAudit(client, audit)
          return (added.rowCount ?? 0) > 0
        }),
      ),
    lift: (emailHash, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const lifted = await client.query('DELETE FROM suppressions WHERE email_hash = $1', [emailHash])
          if ((lifted.rowCount ?? 0) > 0 && audit) await writeAudit(client, audit)
          return (lifted.rowCount ?? 0) > 0
        }),
      ),
    eventsOf: (signupId) =>
      run(async () => {
        const result = await pool.query<{ type: MailEventType; source: string; at: string }>(
          `SELECT type, source, ${iso('at')} AS at FROM mail_events WHERE signup_id = $1 ORDER BY id`,
          [signupId],
        )
        return result.rows
      }),
  }
}
