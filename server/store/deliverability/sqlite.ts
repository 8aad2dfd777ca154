// The deliverability figures in SQLite (docs/decisions/020-deliverability.md): counted from the
// outbox, the mail events and the sign-ups, in one read transaction so that they add up.
import type Database from 'better-sqlite3'
import { DOMAIN_ROWS } from '../../../contract/deliverability.js'
import { type DeliverabilityCounts, deliverabilityOf, windowStart } from './figures.js'
import type { DeliverabilityStore } from '../types.js'
import { type Run } from '../shared/sqlite.js'

/** The recipient's domain: the address after its @, lower-cased. */
const DOMAIN = `lower(substr(w.email, instr(w.email, '@') + 1))`

/** Distinct mails with each kind of event; a hard bounce only where the server first took the mail (a refused one counts already). */
const EVENT_COUNTS = `count(DISTINCT CASE WHEN e.type = 'hard-bounce' AND o.state = 'sent' THEN o.id END) AS hardAfter,
  count(DISTINCT CASE WHEN e.type = 'soft-bounce' THEN o.id END) AS soft,
  count(DISTINCT CASE WHEN e.type = 'complaint' THEN o.id END) AS complained`

export function createSqliteDeliverability(db: Database.Database, run: Run): DeliverabilityStore {
  // Sent and refused kept by the outbox's trigger (db/sqlite/013_deliverability.sql); what waits is
  // read from the index, and is little once a wave is out.
  const campaigns = db.prepare(
    `SELECT c.id, c.subject, c.status, c.paused_reason AS pausedReason,
       coalesce(k.sent, 0) AS sent, coalesce(k.refused, 0) AS refused,
       (SELECT count(*) FROM outbox WHERE campaign_id = c.id AND state IN ('queued', 'sending')) AS waiting
     FROM campaigns AS c LEFT JOIN mail_campaign_counts AS k ON k.campaign_id = c.id
     WHERE c.status <> 'draft' ORDER BY c.id DESC`,
  )
  const campaignEvents = db.prepare(
    `SELECT o.campaign_id AS id, ${EVENT_COUNTS}
     FROM mail_events AS e JOIN outbox AS o ON o.id = e.outbox_id
     WHERE o.campaign_id IS NOT NULL AND o.state IN ('sent', 'bounced') GROUP BY o.campaign_id`,
  )
  const campaignUnsubscribed = db.prepare(
    `SELECT o.campaign_id AS id, count(*) AS unsubscribed
     FROM waitlist AS w JOIN outbox AS o ON o.signup_id = w.id
     WHERE w.unsubscribed_at IS NOT NULL AND o.campaign_id IS NOT NULL AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at
       -- The campaign mail they last had before they stopped: one unsubscribe, one campaign.
       AND NOT EXISTS (SELECT 1 FROM outbox AS later WHERE later.signup_id = w.id AND later.campaign_id IS NOT NULL
         AND later.state = 'sent' AND later.sent_at > o.sent_at AND later.sent_at <= w.unsubscribed_at)
     GROUP BY o.campaign_id`,
  )
  // Kept by a trigger as the mails go (db/sqlite/013_deliverability.sql): no pass over every mail.
  const domains = db.prepare(`SELECT domain, sent, refused FROM mail_domain_counts ORDER BY sent DESC, domain LIMIT ${DOMAIN_ROWS}`)
  const domainTotals = db.prepare(
    'SELECT count(*) AS domains, coalesce(sum(sent), 0) AS sent, coalesce(sum(refused), 0) AS refused FROM mail_domain_counts',
  )
  const domainEvents = db.prepare(
    `SELECT ${DOMAIN} AS domain, ${EVENT_COUNTS}
     FROM mail_events AS e JOIN outbox AS o ON o.id = e.outbox_id JOIN waitlist AS w ON w.id = o.signup_id
     WHERE o.state IN ('sent', 'bounced') GROUP BY 1`,
  )
  const domainUnsubscribed = db.prepare(
    `SELECT ${DOMAIN} AS domain, count(*) AS unsubscribed FROM waitlist AS w
     WHERE w.unsubscribed_at IS NOT NULL
       AND EXISTS (SELECT 1 FROM outbox AS o WHERE o.signup_id = w.id AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at)
     GROUP BY 1`,
  )
  const window = db.prepare(
    // Both kept per UTC day (db/sqlite/013_deliverability.sql): a deleted complainer's complaint still counts.
    `SELECT (SELECT coalesce(sum(complaints), 0) FROM mail_complaint_days WHERE day >= substr(@since, 1, 10)) AS complaints,
       (SELECT coalesce(sum(sent), 0) FROM mail_day_counts WHERE day >= substr(@since, 1, 10)) AS sent`,
  )
  const unattributed = db.prepare(
    `SELECT coalesce(sum(type = 'hard-bounce'), 0) AS hardBounced, coalesce(sum(type = 'soft-bounce'), 0) AS softBounced,
       coalesce(sum(type = 'complaint'), 0) AS complained
     FROM mail_events WHERE outbox_id IS NULL`,
  )
  const count = db.transaction((now: Date): DeliverabilityCounts => ({
    campaigns: campaigns.all() as DeliverabilityCounts['campaigns'],
    campaignEvents: campaignEvents.all() as DeliverabilityCounts['campaignEvents'],
    campaignUnsubscribed: campaignUnsubscribed.all() as DeliverabilityCounts['campaignUnsubscribed'],
    domains: domains.all() as DeliverabilityCounts['domains'],
    domainTotals: domainTotals.get() as DeliverabilityCounts['domainTotals'],
    domainEvents: domainEvents.all() as DeliverabilityCounts['domainEvents'],
    domainUnsubscribed: domainUnsubscribed.all() as DeliverabilityCounts['domainUnsubscribed'],
    window: window.get({ since: windowStart(now) }) as DeliverabilityCounts['window'],
    unattributed: unattributed.get() as DeliverabilityCounts['unattributed'],
  }))
  return {
    figures: () =>
      run(() => {
        const now = new Date()
        return deliverabilityOf(count(now), now)
      }),
  }
}
