// Bounces, complaints and the suppression list in SQLite (docs/decisions/019-suppression.md).
import type Database from 'better-sqlite3'
import { PAUSE_WINDOW, SOFT_BOUNCE_DAYS, SOFT_BOUNCES_TO_SUPPRESS, type Suppression } from '../../../contract/mail-events.js'
import { pausedByRule, pauseReason } from './pause-rule.js'
import { type Run, auditWriter, now } from '../shared/sqlite.js'
import {
  type MailEventRecord,
  type PauseRule,
  type RecordOptions,
  type RecordOutcome,
  type RecordResult,
  REMEMBER_REPORTS_MS,
  type SuppressionStore,
} from '../types.js'

export function createSqliteSuppressions(db: Database.Database, run: Run): SuppressionStore {
  const writeAudit = auditWriter(db)
  const key = db.prepare(`SELECT value ->> '$' FROM settings WHERE key = 'suppression_key'`).pluck()
  const seen = db.prepare('SELECT 1 FROM mail_events WHERE event_id = ?').pluck()
  const signupOf = db.prepare('SELECT id FROM waitlist WHERE lower(email) = lower(?)').pluck()
  const insert = db.prepare(
    `INSERT INTO mail_events (at, email_hash, signup_id, outbox_id, type, source, event_id)
     VALUES (@at, @emailHash, @signupId, @outboxId, @type, @source, @eventId)`,
  )
  const softSince = db
    .prepare(`SELECT count(*) FROM mail_events WHERE email_hash = @emailHash AND type = 'soft-bounce' AND at >= @since`)
    .pluck()
  const suppress = db.prepare(
    `INSERT INTO suppressions (email_hash, email, reason, at) VALUES (@emailHash, @email, @reason, @at) ON CONFLICT (email_hash) DO NOTHING`,
  )
  const unsubscribe = db.prepare('UPDATE waitlist SET unsubscribed_at = coalesce(unsubscribed_at, @at) WHERE id = @id')
  const dropQueued = db.prepare(
    `UPDATE outbox SET state = 'failed', token = NULL, last_error = 'suppressed' WHERE signup_id = ? AND state = 'queued'`,
  )
  const campaignOf = db
    .prepare(
      `SELECT campaigns.id FROM outbox JOIN campaigns ON campaigns.id = outbox.campaign_id WHERE outbox.id = ? AND campaigns.status = 'sending'`,
    )
    .pluck()
  const lastDeliveries = db.prepare(
    `WITH last AS (SELECT id FROM outbox WHERE campaign_id = @campaign AND state IN ('sent', 'bounced') ORDER BY id DESC LIMIT ${PAUSE_WINDOW})
     SELECT (SELECT count(*) FROM last) AS deliveries,
       (SELECT count(DISTINCT outbox_id) FROM mail_events WHERE type = 'hard-bounce' AND outbox_id IN (SELECT id FROM last)) AS hard,
       (SELECT count(DISTINCT outbox_id) FROM mail_events WHERE type = 'complaint' AND outbox_id IN (SELECT id FROM last)) AS complaints`,
  )
  const pauseCampaign = db.prepare(
    // Only while some of it waits: a late bounce after its last mail left does not stop a finished wave.
    `UPDATE campaigns SET status = 'paused', paused_reason = @reason WHERE id = @campaign AND status = 'sending'
       AND EXISTS (SELECT 1 FROM outbox WHERE campaign_id = @campaign AND state = 'queued')`,
  )
  /** The campaign paused when its last deliveries say so; its id then. */
  const judge = (campaign: number, rule: PauseRule): number | null => {
    const reason = pauseReason(lastDeliveries.get({ campaign }) as { deliveries: number; hard: number; complaints: number }, rule)
    if (reason === null || pauseCampaign.run({ campaign, reason }).changes === 0) return null
    writeAudit(pausedByRule(campaign, reason))
    return campaign
  }
  const forget = db.prepare('DELETE FROM reports_seen WHERE expires_at <= ?')
  // Taken now unless taken before and still remembered (an expired key is taken afresh).
  const take = db.prepare(
    `INSERT INTO reports_seen (key, expires_at) VALUES (@key, @until)
     ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE reports_seen.expires_at <= @now`,
  )
  const remembered = db.prepare('SELECT 1 FROM reports_seen WHERE key = ? AND expires_at > ?').pluck()
  const record = db.transaction((events: readonly MailEventRecord[], options: RecordOptions): RecordResult => {
    const at = now()
    const until = new Date(Date.parse(at) + (options.rememberMs ?? REMEMBER_REPORTS_MS)).toISOString()
    forget.run(at)
    for (const key of options.once ?? []) if (take.run({ key: `once:${key}`, until, now: at }).changes === 0) return { taken: false }
    const softSinceAt = new Date(Date.parse(at) - SOFT_BOUNCE_DAYS * 86_400_000).toISOString()
    const outcomes = events.map((event): RecordOutcome & { campaign: number | null } => {
      const none = { recorded: false, suppressed: false, pausedCampaign: null, campaign: null }
      if (event.eventId !== null && (seen.get(event.eventId) || remembered.get(`event:${event.eventId}`, at))) return none
      const signupId = (signupOf.get(event.email) as number | undefined) ?? null
      insert.run({ ...event, at, signupId })
      if (event.eventId !== null) take.run({ key: `event:${event.eventId}`, until, now: at })
      const campaign =
        options.rule && event.outboxId !== null && event.type !== 'soft-bounce'
          ? ((campaignOf.get(event.outboxId) as number | undefined) ?? null)
          : null
      const reason =
        event.type !== 'soft-bounce'
          ? event.type
          : Number(softSince.get({ emailHash: event.emailHash, since: softSinceAt })) >= SOFT_BOUNCES_TO_SUPPRESS
            ? 'soft-bounce'
            : null
      if (reason === null) return { recorded: true, suppressed: false, pausedCampaign: null, campaign }
      suppress.run({ emailHash: event.emailHash, email: signupId === null ? null : event.email.toLowerCase(), reason, at })
      if (signupId !== null) {
        if (event.type === 'complaint') unsubscribe.run({ id: signupId, at })
        dropQueued.run(signupId)
      }
      return { recorded: true, suppressed: true, pausedCampaign: null, campaign }
    })
    // Each campaign the report touched is judged once, on its deliveries with all of the report in.
    const paused = new Map<number, number | null>()
    for (const { campaign } of outcomes)
      if (campaign !== null && options.rule && !paused.has(campaign)) paused.set(campaign, judge(campaign, options.rule))
    return {
      taken: true,
      outcomes: outcomes.map(({ campaign, ...outcome }) => ({
        ...outcome,
        pausedCampaign: campaign === null ? null : (paused.get(campaign) ?? null),
      })),
    }
  })
  const message = db.prepare(
    `SELECT outbox.id AS outboxId, coalesce(waitlist.email, operator_links.email, operators.email) AS email FROM outbox
     LEFT JOIN waitlist ON waitlist.id = outbox.signup_id LEFT JOIN operator_links ON operator_links.id = outbox.link_id
     LEFT JOIN operators ON operators.id = outbox.operator_id WHERE outbox.message_key = ?`,
  )
  const outbox = db.prepare(
    `SELECT outbox.id AS outboxId, coalesce(waitlist.email, operator_links.email, operators.email) AS email FROM outbox
     LEFT JOIN waitlist ON waitlist.id = outbox.signup_id LEFT JOIN operator_links ON operator_links.id = outbox.link_id
     LEFT JOIN operators ON operators.id = outbox.operator_id WHERE outbox.id = ?`,
  )
  const list = db.prepare(
    `SELECT email, reason, at FROM suppressions WHERE @query IS NULL OR instr(email, lower(@query)) > 0 ORDER BY at DESC, email_hash LIMIT @limit`,
  )
  const lift = db.prepare('DELETE FROM suppressions WHERE email_hash = ?')
  const relink = db.prepare(
    `UPDATE suppressions SET email = @email WHERE email_hash = @emailHash AND email IS NULL
       AND EXISTS (SELECT 1 FROM waitlist WHERE lower(waitlist.email) = @email)`,
  )
  const events = db.prepare('SELECT type, source, at FROM mail_events WHERE signup_id = ? ORDER BY id')
  return {
    key: () => run(() => String(key.get())),
    record: (events, options = {}) => run(() => record.immediate(events, options)),
    suppressedAmong: (hashes) =>
      run(() => {
        if (hashes.length === 0) return new Set<string>()
        const found = db
          .prepare(`SELECT email_hash FROM suppressions WHERE email_hash IN (${hashes.map(() => '?').join(', ')})`)
          .pluck()
          .all(...hashes) as string[]
        return new Set(found)
      }),
    relink: (entries) =>
      run(() => {
        for (const entry of entries) relink.run({ emailHash: entry.emailHash, email: entry.email.toLowerCase() })
      }),
    messagesOf: (messageKeys) =>
      run(() => {
        const found = new Map<string, { outboxId: number; email: string }>()
        for (const key of new Set(messageKeys)) {
          const row = message.get(key) as { outboxId: number; email: string } | undefined
          if (row) found.set(key, row)
        }
        return found
      }),
    outboxOf: (id) => run(() => outbox.get(id) as { outboxId: number; email: string } | undefined),
    list: (query, limit) => run(() => list.all({ query, limit }) as Suppression[]),
    add: (email, emailHash, audit) =>
      run(() =>
        db.transaction(() => {
          const added = suppress.run({ emailHash, email: email.toLowerCase(), reason: 'manual', at: now() }).changes > 0
          if (added && audit) writeAudit(audit)
          return added
        })(),
      ),
    lift: (emailHash, audit) =>
      run(() =>
        db.transaction(() => {
          const lifted = lift.run(emailHash).changes > 0
          if (lifted && audit) writeAudit(audit)
          return lifted
        })(),
      ),
    eventsOf: (signupId) => run(() => events.all(signupId) as { type: 'hard-bounce'; source: string; at: string }[]),
  }
}
