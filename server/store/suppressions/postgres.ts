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
import {
  type MailEventRecord,
  type PauseRule,
  type RecordOptions,
  type RecordResult,
  REMEMBER_REPORTS_MS,
  type SuppressionStore,
} from '../types.js'
import { pausedByRule, pauseReason } from './pause-rule.js'

const RECIPIENT = `SELECT outbox.id::int AS "outboxId", coalesce(waitlist.email, operator_links.email, operators.email) AS email FROM outbox
  LEFT JOIN waitlist ON waitlist.id = outbox.signup_id LEFT JOIN operator_links ON operator_links.id = outbox.link_id
  LEFT JOIN operators ON operators.id = outbox.operator_id`

/** The campaign paused when its last deliveries say so (locked while judged); its id then. */
async function judge(client: pg.PoolClient, campaign: number, rule: PauseRule): Promise<number | null> {
  const locked = await client.query(`SELECT 1 FROM campaigns WHERE id = $1 AND status = 'sending' FOR UPDATE`, [campaign])
  if (locked.rowCount === 0) return null
  const window = await client.query<{ deliveries: number; hard: number; complaints: number }>(
    `WITH last AS (SELECT id FROM outbox WHERE campaign_id = $1 AND state IN ('sent', 'bounced') ORDER BY id DESC LIMIT ${PAUSE_WINDOW})
     SELECT (SELECT count(*) FROM last)::int AS deliveries,
       (SELECT count(DISTINCT outbox_id) FROM mail_events WHERE type = 'hard-bounce' AND outbox_id IN (SELECT id FROM last))::int AS hard,
       (SELECT count(DISTINCT outbox_id) FROM mail_events WHERE type = 'complaint' AND outbox_id IN (SELECT id FROM last))::int AS complaints`,
    [campaign],
  )
  const reason = pauseReason(window.rows[0] ?? { deliveries: 0, hard: 0, complaints: 0 }, rule)
  if (reason === null) return null
  // Only while some of it waits: a late bounce after its last mail left does not stop a finished wave.
  const paused = await client.query(
    `UPDATE campaigns SET status = 'paused', paused_reason = $2 WHERE id = $1 AND status = 'sending'
       AND EXISTS (SELECT 1 FROM outbox WHERE campaign_id = $1 AND state = 'queued')`,
    [campaign, reason],
  )
  if (paused.rowCount === 0) return null
  await writeAudit(client, pausedByRule(campaign, reason))
  return campaign
}

/**
 * A report's events in a few statements whatever their number (SendGrid posts up to 768 KB, some
 * 4,000 events, and SNS a batch per message): one transaction of one statement per step, not one
 * per event, so a large batch is answered in well under the connection's timeout.
 */
async function recordAll(client: pg.PoolClient, events: readonly MailEventRecord[], options: RecordOptions): Promise<RecordResult> {
  const rememberMs = options.rememberMs ?? REMEMBER_REPORTS_MS
  await client.query('DELETE FROM reports_seen WHERE expires_at <= now()')
  // Taken now unless taken before and still remembered (an expired key is taken afresh).
  const take = (keys: readonly string[]) =>
    client.query<{ key: string }>(
      `INSERT INTO reports_seen (key, expires_at) SELECT key, now() + $2 * interval '1 millisecond' FROM unnest($1::text[]) AS k(key)
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE reports_seen.expires_at <= now() RETURNING key`,
      [keys, rememberMs],
    )
  const once = (options.once ?? []).map((key) => `once:${key}`)
  if (once.length > 0 && (await take(once)).rowCount !== once.length) return { taken: false }

  // Each event once: not recorded before, not remembered, and the first of its id in this report.
  const ids = [...new Set(events.flatMap((event) => (event.eventId === null ? [] : [event.eventId])))]
  const seen = new Set(
    (
      await client.query<{ id: string }>(
        `SELECT event_id AS id FROM mail_events WHERE event_id = ANY($1::text[])
         UNION SELECT substr(key, 7) FROM reports_seen WHERE key = ANY($2::text[]) AND expires_at > now()`,
        [ids, ids.map((id) => `event:${id}`)],
      )
    ).rows.map((row) => row.id),
  )
  const fresh = events.map((event) => {
    if (event.eventId === null) return true
    if (seen.has(event.eventId)) return false
    seen.add(event.eventId)
    return true
  })
  const recorded = events.filter((_, i) => fresh[i])
  const signups = new Map(
    (
      await client.query<{ email: string; id: string }>(
        'SELECT lower(email) AS email, id::text AS id FROM waitlist WHERE lower(email) = ANY($1::text[])',
        [[...new Set(recorded.map((event) => event.email.toLowerCase()))]],
      )
    ).rows.map((row) => [row.email, row.id]),
  )
  const signupOf = (event: MailEventRecord) => signups.get(event.email.toLowerCase()) ?? null
  if (recorded.length > 0) {
    await client.query(
      `INSERT INTO mail_events (email_hash, signup_id, outbox_id, type, source, event_id)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[])`,
      [
        recorded.map((event) => event.emailHash),
        recorded.map(signupOf),
        recorded.map((event) => event.outboxId),
        recorded.map((event) => event.type),
        recorded.map((event) => event.source),
        recorded.map((event) => event.eventId),
      ],
    )
    const remember = recorded.flatMap((event) => (event.eventId === null ? [] : [`event:${event.eventId}`]))
    if (remember.length > 0) await take(remember)
  }

  // What each event decides: soft bounces counted with the report's own in.
  const softHashes = [...new Set(recorded.filter((event) => event.type === 'soft-bounce').map((event) => event.emailHash))]
  const soft = new Map(
    (
      await client.query<{ hash: string; n: number }>(
        `SELECT email_hash AS hash, count(*)::int AS n FROM mail_events WHERE email_hash = ANY($1::text[]) AND type = 'soft-bounce'
           AND at >= now() - make_interval(days => $2) GROUP BY email_hash`,
        [softHashes, SOFT_BOUNCE_DAYS],
      )
    ).rows.map((row) => [row.hash, row.n]),
  )
  const reasonOf = (event: MailEventRecord) =>
    event.type !== 'soft-bounce' ? event.type : (soft.get(event.emailHash) ?? 0) >= SOFT_BOUNCES_TO_SUPPRESS ? 'soft-bounce' : null
  const suppressing = recorded.filter((event) => reasonOf(event) !== null)
  const firstPerHash = [...new Map(suppressing.map((event) => [event.emailHash, event] as const)).values()].reverse()
  if (firstPerHash.length > 0) {
    await client.query(
      `INSERT INTO suppressions (email_hash, email, reason) SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT (email_hash) DO NOTHING`,
      [
        firstPerHash.map((event) => event.emailHash),
        firstPerHash.map((event) => (signupOf(event) === null ? null : event.email.toLowerCase())),
        firstPerHash.map(reasonOf),
      ],
    )
    const complained = [
      ...new Set(
        suppressing
          .filter((event) => event.type === 'complaint')
          .map(signupOf)
          .filter((id) => id !== null),
      ),
    ]
    if (complained.length > 0)
      await client.query('UPDATE waitlist SET unsubscribed_at = coalesce(unsubscribed_at, now()) WHERE id = ANY($1::bigint[])', [
        complained,
      ])
    const held = [...new Set(suppressing.map(signupOf).filter((id) => id !== null))]
    if (held.length > 0)
      await client.query(
        `UPDATE outbox SET state = 'failed', token = NULL, last_error = 'suppressed' WHERE signup_id = ANY($1::bigint[]) AND state = 'queued'`,
        [held],
      )
  }

  // Each campaign the report touched is judged once, on its deliveries with all of the report in.
  const campaignOf = new Map<number, number>()
  const judged = recorded.filter((event) => event.outboxId !== null && event.type !== 'soft-bounce')
  if (options.rule && judged.length > 0) {
    const rows = await client.query<{ outbox: number; campaign: number }>(
      'SELECT id::int AS outbox, campaign_id::int AS campaign FROM outbox WHERE id = ANY($1::bigint[]) AND campaign_id IS NOT NULL',
      [judged.map((event) => event.outboxId)],
    )
    for (const row of rows.rows) campaignOf.set(row.outbox, row.campaign)
  }
  const paused = new Map<number, number | null>()
  if (options.rule)
    for (const campaign of [...new Set(campaignOf.values())].sort((a, b) => a - b))
      paused.set(campaign, await judge(client, campaign, options.rule))
  const suppressed = new Set(suppressing)
  return {
    taken: true,
    outcomes: events.map((event, i) => {
      const campaign = event.outboxId === null ? undefined : campaignOf.get(event.outboxId)
      return fresh[i]
        ? {
            recorded: true,
            suppressed: suppressed.has(event),
            pausedCampaign: campaign === undefined ? null : (paused.get(campaign) ?? null),
          }
        : { recorded: false, suppressed: false, pausedCampaign: null }
    }),
  }
}

export function createPostgresSuppressions(pool: pg.Pool, run: Run): SuppressionStore {
  return {
    key: () =>
      run(async () => {
        const result = await pool.query<{ value: string }>(`SELECT value #>> '{}' AS value FROM settings WHERE key = 'suppression_key'`)
        return result.rows[0]?.value ?? ''
      }),
    record: (events, options = {}) => run(() => inTransaction(pool, (client) => recordAll(client, events, options))),
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
    messagesOf: (messageKeys) =>
      run(async () => {
        // The column is a uuid: anything else names no mail of ours.
        const keys = [...new Set(messageKeys.filter((key) => /^[0-9a-f-]{36}$/i.test(key)))]
        if (keys.length === 0) return new Map()
        const rows = await pool.query<{ outboxId: number; email: string; key: string }>(
          `${RECIPIENT.replace('FROM outbox', ', outbox.message_key::text AS key FROM outbox')} WHERE outbox.message_key = ANY($1::uuid[])`,
          [keys],
        )
        return new Map(rows.rows.map(({ key, ...found }) => [key, found]))
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
