// Whether our mail reaches inboxes (docs/decisions/020-deliverability.md): what GET
// /admin/api/deliverability answers, per campaign, per recipient domain, and the deployment's
// rolling complaint rate against the line the large mailbox providers draw. Types and constants;
// this folder imports nothing but itself.
import type { CampaignStatus } from './campaigns.js'
import type { DeliveryFigures } from './mail-figures.js'

export type { DeliveryFigures } from './mail-figures.js'

/** Gmail and Yahoo ask bulk senders never to reach 0.3 % of their mail reported as spam (a fraction). */
export const COMPLAINT_RATE_LIMIT = 0.003
/** The complaint rate is counted over this many days up to now, as the providers' own dashboards count it. */
export const COMPLAINT_RATE_DAYS = 30
/** Recipient domains listed one by one, the most mailed first; the rest are pooled in one row. */
export const DOMAIN_ROWS = 50

/** One campaign that was sent (drafts are left out), the newest first. */
export interface CampaignDeliverability extends DeliveryFigures {
  id: number
  subject: string
  status: CampaignStatus
  /** Why it paused itself (its hard bounces or complaints over its last deliveries); null otherwise. */
  pausedReason: string | null
}

/** The mails to sign-ups (confirmations and campaigns) at one domain: the part of the address after the @, lower-cased. */
export interface DomainDeliverability extends DeliveryFigures {
  /** null: every domain past the first DOMAIN_ROWS, pooled. */
  domain: string | null
  /** How many domains the row holds (1 but for the pooled row). */
  domains: number
}

/** Complaints against mails sent over the last COMPLAINT_RATE_DAYS, every kind of mail counted. */
export interface ComplaintRate {
  days: number
  /** Complaints recorded in the window, whichever mail they were about (or none known). */
  complaints: number
  /** Mails the mail server accepted in the window (refused ones never reached an inbox). */
  sent: number
  /** complaints / sent; null while nothing was sent in the window. */
  rate: number | null
  limit: number
  /** At or above the limit: Gmail and Yahoo start refusing or filtering the sender's mail. */
  above: boolean
}

/** GET /admin/api/deliverability */
export interface Deliverability {
  complaintRate: ComplaintRate
  campaigns: CampaignDeliverability[]
  /** The most mailed domains first (the pooled row, if any, last). */
  domains: DomainDeliverability[]
  /**
   * Bounces and complaints reported by address alone (no Message-ID or VERP address named the
   * mail): in the complaint rate, in no campaign's or domain's row.
   */
  unattributed: { hardBounced: number; softBounced: number; complained: number }
  /** ISO 8601, UTC: when these figures were counted. */
  countedAt: string
}

/** The rate as the view says it: `0.25 %`, two decimals (the line is 0.30 %). */
export const percent = (fraction: number): string => `${(fraction * 100).toFixed(2)} %`

/** Whether a rate is at or above the line (Gmail: "avoid ever reaching a spam rate of 0.3 % or higher"). */
export const isAboveComplaintLimit = (rate: number | null): boolean => rate !== null && rate >= COMPLAINT_RATE_LIMIT
