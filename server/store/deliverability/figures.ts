// The deliverability figures (docs/decisions/020-deliverability.md) from the tallies both stores
// keep (docs/decisions/021-tallies.md): the same arithmetic for both, and the same as every other
// view that says what became of mails (contract/mail-figures.ts).
import {
  COMPLAINT_RATE_DAYS,
  COMPLAINT_RATE_LIMIT,
  type CampaignDeliverability,
  type Deliverability,
  DOMAIN_ROWS,
  type DomainDeliverability,
  isAboveComplaintLimit,
} from '../../../contract/deliverability.js'
import { deliveryFigures, MAIL_COUNTS, type MailCounts } from '../../../contract/mail-figures.js'
import { byKey, ofKind, recordOf, type TallyKind, type TallyRow } from '../tallies/shared.js'

/** The tallies the figures are made of. */
export const DELIVERABILITY_TALLIES = [
  'outbox',
  'mail-campaign',
  'mail-domain',
  'mail-day',
  'mail-unattributed',
] as const satisfies readonly TallyKind[]

/** A campaign that was sent, as its row says it. */
export interface SentCampaign {
  id: number
  subject: string
  status: 'sending' | 'paused'
  pausedReason: string | null
}

/** The first day of the complaint rate's window as of `now`: COMPLAINT_RATE_DAYS days back (UTC), today counted as one. */
export const windowStart = (now: Date): string =>
  new Date(now.getTime() - (COMPLAINT_RATE_DAYS - 1) * 86_400_000).toISOString().slice(0, 10)

const none: MailCounts = { sent: 0, refused: 0, hard: 0, soft: 0, complained: 0, unsubscribed: 0 }

export function deliverabilityOf(sent: readonly SentCampaign[], tallies: readonly TallyRow[], countedAt: Date): Deliverability {
  const waiting = byKey(ofKind(tallies, 'outbox'), ['queued', 'sending'] as const)
  const campaignCounts = byKey(ofKind(tallies, 'mail-campaign'), MAIL_COUNTS)
  const campaigns = sent.map((row): CampaignDeliverability => {
    const queue = waiting.get(String(row.id))
    return {
      id: row.id,
      subject: row.subject,
      // As the campaigns' own progress says it: finished once none of its mails waits.
      status: (queue?.queued ?? 0) + (queue?.sending ?? 0) === 0 ? 'finished' : row.status,
      pausedReason: row.status === 'paused' ? row.pausedReason : null,
      ...deliveryFigures(campaignCounts.get(String(row.id)) ?? none),
    }
  })

  // The most mailed domains one by one; whatever else was mailed, pooled in one row.
  const byDomain = [...byKey(ofKind(tallies, 'mail-domain'), MAIL_COUNTS)]
    .filter(([, counts]) => counts.sent > 0)
    .sort(([a, x], [b, y]) => y.sent - x.sent || (a < b ? -1 : a > b ? 1 : 0))
  const domains = byDomain
    .slice(0, DOMAIN_ROWS)
    .map(([domain, counts]): DomainDeliverability => ({ domain, domains: 1, ...deliveryFigures(counts) }))
  const rest = byDomain.slice(DOMAIN_ROWS)
  if (rest.length > 0) {
    const pooled = rest.reduce<MailCounts>(
      (sum, [, counts]) => {
        for (const field of MAIL_COUNTS) sum[field] += counts[field]
        return sum
      },
      { ...none },
    )
    domains.push({ domain: null, domains: rest.length, ...deliveryFigures(pooled) })
  }

  const since = windowStart(countedAt)
  const window = recordOf(
    ofKind(tallies, 'mail-day').filter((row) => row.key >= since),
    ['sent', 'complaints'] as const,
  )
  const unattributed = recordOf(ofKind(tallies, 'mail-unattributed'), ['hard', 'soft', 'complained'] as const)
  const rate = window.sent === 0 ? null : window.complaints / window.sent
  return {
    complaintRate: {
      days: COMPLAINT_RATE_DAYS,
      complaints: window.complaints,
      sent: window.sent,
      rate,
      limit: COMPLAINT_RATE_LIMIT,
      above: isAboveComplaintLimit(rate),
    },
    campaigns,
    domains,
    unattributed: { hardBounced: unattributed.hard, softBounced: unattributed.soft, complained: unattributed.complained },
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
