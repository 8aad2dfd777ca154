// The deliverability figures from what each store counts (docs/decisions/020-deliverability.md):
// the same arithmetic for both, so that SQLite and PostgreSQL cannot drift apart in what a figure means.
import {
  COMPLAINT_RATE_DAYS,
  COMPLAINT_RATE_LIMIT,
  type CampaignDeliverability,
  type Deliverability,
  type DeliveryFigures,
  DOMAIN_ROWS,
  type DomainDeliverability,
  isAboveComplaintLimit,
} from '../../../contract/deliverability.js'

/** Mails handed to the mail server (state sent or bounced), and of them those it refused at once (bounced). */
export interface SentCounts {
  sent: number
  refused: number
}

/** Of the mails handed over: distinct mails with a hard bounce reported after it took them, a soft bounce, a complaint. */
export interface EventCounts {
  hardAfter: number
  soft: number
  complained: number
}

/** What a store counts; each list keyed by campaign id or domain, absent keys counting 0. */
export interface DeliverabilityCounts {
  campaigns: (SentCounts & { id: number; subject: string; status: 'sending' | 'paused'; pausedReason: string | null; waiting: number })[]
  campaignEvents: (EventCounts & { id: number })[]
  campaignUnsubscribed: { id: number; unsubscribed: number }[]
  /** The DOMAIN_ROWS most mailed domains, the most first… */
  domains: (SentCounts & { domain: string })[]
  /** …and every domain's together. */
  domainTotals: SentCounts & { domains: number }
  domainEvents: (EventCounts & { domain: string })[]
  domainUnsubscribed: { domain: string; unsubscribed: number }[]
  window: { complaints: number; sent: number }
  unattributed: Deliverability['unattributed']
}

/** The start of the complaint rate's window as of `now`: midnight (UTC) COMPLAINT_RATE_DAYS days back, today counted as one. */
export const windowStart = (now: Date): string =>
  `${new Date(now.getTime() - (COMPLAINT_RATE_DAYS - 1) * 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`

const none: EventCounts = { hardAfter: 0, soft: 0, complained: 0 }

function figuresOf(sent: SentCounts, events: EventCounts, unsubscribed: number): DeliveryFigures {
  const hardBounced = sent.refused + events.hardAfter
  return {
    sent: sent.sent,
    delivered: sent.sent - hardBounced,
    hardBounced,
    softBounced: events.soft,
    complained: events.complained,
    unsubscribed,
  }
}

export function deliverabilityOf(counts: DeliverabilityCounts, countedAt: Date): Deliverability {
  const campaignEvents = new Map(counts.campaignEvents.map((row) => [row.id, row]))
  const campaignUnsubscribed = new Map(counts.campaignUnsubscribed.map((row) => [row.id, row.unsubscribed]))
  const campaigns = counts.campaigns.map((row): CampaignDeliverability => ({
    id: row.id,
    subject: row.subject,
    // As the campaigns' own progress says it: finished once none of its mails waits.
    status: row.waiting === 0 ? 'finished' : row.status,
    pausedReason: row.status === 'paused' ? row.pausedReason : null,
    ...figuresOf(row, campaignEvents.get(row.id) ?? none, campaignUnsubscribed.get(row.id) ?? 0),
  }))

  // The listed domains one by one; whatever else was mailed, pooled in one row.
  const listed = new Set(counts.domains.map((row) => row.domain))
  const domainEvents = new Map(counts.domainEvents.map((row) => [row.domain, row]))
  const domainUnsubscribed = new Map(counts.domainUnsubscribed.map((row) => [row.domain, row.unsubscribed]))
  const domains = counts.domains.slice(0, DOMAIN_ROWS).map((row): DomainDeliverability => ({
    domain: row.domain,
    domains: 1,
    ...figuresOf(row, domainEvents.get(row.domain) ?? none, domainUnsubscribed.get(row.domain) ?? 0),
  }))
  const others = counts.domainTotals.domains - domains.length
  if (others > 0) {
    const sumOf = (key: keyof SentCounts) => counts.domainTotals[key] - counts.domains.reduce((sum, row) => sum + row[key], 0)
    const unlisted = <T>(rows: readonly (T & { domain: string })[]) => rows.filter((row) => !listed.has(row.domain))
    const events = unlisted(counts.domainEvents).reduce<EventCounts>(
      (sum, row) => ({ hardAfter: sum.hardAfter + row.hardAfter, soft: sum.soft + row.soft, complained: sum.complained + row.complained }),
      none,
    )
    const unsubscribed = unlisted(counts.domainUnsubscribed).reduce((sum, row) => sum + row.unsubscribed, 0)
    domains.push({ domain: null, domains: others, ...figuresOf({ sent: sumOf('sent'), refused: sumOf('refused') }, events, unsubscribed) })
  }

  const rate = counts.window.sent === 0 ? null : counts.window.complaints / counts.window.sent
  return {
    complaintRate: {
      days: COMPLAINT_RATE_DAYS,
      complaints: counts.window.complaints,
      sent: counts.window.sent,
      rate,
      limit: COMPLAINT_RATE_LIMIT,
      above: isAboveComplaintLimit(rate),
    },
    campaigns,
    domains,
    unattributed: counts.unattributed,
    countedAt: countedAt.toISOString(),
  }
}

/**
 * The domains as one row, for whoever may not read addresses: a small deployment's domains name
 * people (a family's own domain, with its complaint).
 */
export function domainsPooled(domains: readonly DomainDeliverability[]): DomainDeliverability[] {
  if (domains.length === 0) return []
  const sum = (key: keyof Omit<DomainDeliverability, 'domain'>) => domains.reduce((total, row) => total + row[key], 0)
  return [
    {
      domain: null,
      domains: sum('domains'),
      sent: sum('sent'),
      delivered: sum('delivered'),
      hardBounced: sum('hardBounced'),
      softBounced: sum('softBounced'),
      complained: sum('complained'),
      unsubscribed: sum('unsubscribed'),
    },
  ]
}
