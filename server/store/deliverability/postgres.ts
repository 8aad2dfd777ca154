// The deliverability figures in PostgreSQL (docs/decisions/020-deliverability.md): counted from the
// outbox, the mail events and the sign-ups, in one snapshot so that they add up.
import type pg from 'pg'
import { DOMAIN_ROWS } from '../../../contract/deliverability.js'
import { type DeliverabilityCounts, deliverabilityOf, windowStart } from './figures.js'
import { inTransaction, type Run } from '../shared/postgres.js'
import type { DeliverabilityStore } from '../types.js'

/** The recipient's domain: the address after its @, lower-cased. */
const DOMAIN = `lower(substr(w.email, strpos(w.email, '@') + 1))`

/** Distinct mails with each kind of event; a hard bounce only where the server first took the mail (a refused one counts already). */
const EVENT_COUNTS = `count(DISTINCT o.id) FILTER (WHERE e.type = 'hard-bounce' AND o.state = 'sent')::int AS "hardAfter",
  count(DISTINCT o.id) FILTER (WHERE e.type = 'soft-bounce')::int AS soft,
  count(DISTINCT o.id) FILTER (WHERE e.type = 'complaint')::int AS complained`

// Sent and refused kept by the outbox's trigger (db/postgres/013_deliverability.sql); what waits is
// read from the index, and is little once a wave is out.
const CAMPAIGNS = `SELECT c.id::int AS id, c.subject, c.status, c.paused_reason AS "pausedReason",
    coalesce(k.sent, 0)::int AS sent, coalesce(k.refused, 0)::int AS refused,
    (SELECT count(*) FROM outbox WHERE campaign_id = c.id AND state IN ('queued', 'sending'))::int AS waiting
  FROM campaigns AS c LEFT JOIN mail_campaign_counts AS k ON k.campaign_id = c.id
  WHERE c.status <> 'draft' ORDER BY c.id DESC`

const CAMPAIGN_EVENTS = `SELECT o.campaign_id::int AS id, ${EVENT_COUNTS}
  FROM mail_events AS e JOIN outbox AS o ON o.id = e.outbox_id
  WHERE o.campaign_id IS NOT NULL AND o.state IN ('sent', 'bounced') GROUP BY o.campaign_id`

const CAMPAIGN_UNSUBSCRIBED = `SELECT o.campaign_id::int AS id, count(*)::int AS unsubscribed
  FROM waitlist AS w JOIN outbox AS o ON o.signup_id = w.id
  WHERE w.unsubscribed_at IS NOT NULL AND o.campaign_id IS NOT NULL AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at
    -- The campaign mail they last had before they stopped: one unsubscribe, one campaign.
    AND NOT EXISTS (SELECT 1 FROM outbox AS later WHERE later.signup_id = w.id AND later.campaign_id IS NOT NULL
      AND later.state = 'sent' AND later.sent_at > o.sent_at AND later.sent_at <= w.unsubscribed_at)
  GROUP BY o.campaign_id`

// Kept by a trigger as the mails go (db/postgres/013_deliverability.sql): no pass over every mail.
const DOMAINS = `SELECT domain, sent::int AS sent, refused::int AS refused FROM mail_domain_counts ORDER BY sent DESC, domain COLLATE "C" LIMIT ${DOMAIN_ROWS}`

const DOMAIN_TOTALS = `SELECT count(*)::int AS domains, coalesce(sum(sent), 0)::int AS sent, coalesce(sum(refused), 0)::int AS refused
  FROM mail_domain_counts`

const DOMAIN_EVENTS = `SELECT ${DOMAIN} AS domain, ${EVENT_COUNTS}
  FROM mail_events AS e JOIN outbox AS o ON o.id = e.outbox_id JOIN waitlist AS w ON w.id = o.signup_id
  WHERE o.state IN ('sent', 'bounced') GROUP BY 1`

const DOMAIN_UNSUBSCRIBED = `SELECT ${DOMAIN} AS domain, count(*)::int AS unsubscribed FROM waitlist AS w
  WHERE w.unsubscribed_at IS NOT NULL
    AND EXISTS (SELECT 1 FROM outbox AS o WHERE o.signup_id = w.id AND o.state = 'sent' AND o.sent_at <= w.unsubscribed_at)
  GROUP BY 1`

// Both kept per UTC day (db/postgres/013_deliverability.sql): a deleted complainer's complaint still counts.
const WINDOW = `SELECT (SELECT coalesce(sum(complaints), 0) FROM mail_complaint_days WHERE day >= ($1::timestamptz AT TIME ZONE 'UTC')::date)::int AS complaints,
  (SELECT coalesce(sum(sent), 0) FROM mail_day_counts WHERE day >= ($1::timestamptz AT TIME ZONE 'UTC')::date)::int AS sent`

const UNATTRIBUTED = `SELECT count(*) FILTER (WHERE type = 'hard-bounce')::int AS "hardBounced",
  count(*) FILTER (WHERE type = 'soft-bounce')::int AS "softBounced", count(*) FILTER (WHERE type = 'complaint')::int AS complained
  FROM mail_events WHERE outbox_id IS NULL`

export function createPostgresDeliverability(pool: pg.Pool, run: Run): DeliverabilityStore {
  return {
    figures: () =>
      run(() =>
        inTransaction(pool, async (client) => {
          // One snapshot for every count: delivered is sent less the hard bounces of the same moment.
          await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
          const now = new Date()
          const rows = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => (await client.query<T>(sql, values)).rows
          const counts: DeliverabilityCounts = {
            campaigns: await rows(CAMPAIGNS),
            campaignEvents: await rows(CAMPAIGN_EVENTS),
            campaignUnsubscribed: await rows(CAMPAIGN_UNSUBSCRIBED),
            domains: await rows(DOMAINS),
            domainTotals: (await rows<DeliverabilityCounts['domainTotals']>(DOMAIN_TOTALS))[0] ?? { domains: 0, sent: 0, refused: 0 },
            domainEvents: await rows(DOMAIN_EVENTS),
            domainUnsubscribed: await rows(DOMAIN_UNSUBSCRIBED),
            window: (await rows<DeliverabilityCounts['window']>(WINDOW, [windowStart(now)]))[0] ?? { complaints: 0, sent: 0 },
            unattributed: (await rows<DeliverabilityCounts['unattributed']>(UNATTRIBUTED))[0] ?? {
              hardBounced: 0,
              softBounced: 0,
              complained: 0,
            },
          }
          return deliverabilityOf(counts, now)
        }),
      ),
  }
}
