// What the admin API (/admin/api) answers, as the server sends it and the admin page reads it.
// Types only; this folder imports nothing outside itself.
import type { Platform } from './app.js'
import type { Locale } from './locales.js'
import type { DeliveryFigures, QueueFigures } from './mail-figures.js'
import type { MailEventType, SuppressionReason } from './mail-events.js'
import type { Role } from './visitor.js'

/** Where a mail stands in the outbox. */
export const MAIL_STATES = ['queued', 'sending', 'sent', 'failed', 'bounced'] as const
export type MailState = (typeof MAIL_STATES)[number]

/** A stored sign-up. */
export interface SignUp {
  id: number
  email: string
  /** ISO 8601, UTC. */
  created_at: string
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  referrer: string | null
  /** ISO 8601, UTC; null until the visitor confirms on their page. */
  confirmed_at: string | null
  /** ISO 8601, UTC; set when the visitor stops e-mails. */
  unsubscribed_at: string | null
  role: Role | null
  breeds: string[]
  /** ISO 3166-1 alpha-2. */
  country: string | null
  /** The state of the address's latest mail, if it has one. */
  mail_state: MailState | null
  /** Its worst bounce or complaint on record: a complaint, else a hard bounce, else a soft one. */
  mail_event: MailEventType | null
  /** Why its address is suppressed (never mailed again), if it is. */
  suppressed: SuppressionReason | null
  /** The id of the sign-up whose invite link this one came through, if any (gone with it). */
  invited_by: number | null
  /** That sign-up's address, for the list (not in the export, which has the id). */
  invited_by_email: string | null
  /** How many sign-ups made through this one's link have confirmed, as credited (at most 20 a day). */
  invites_confirmed: number
  /** The language its mails and its page speak. */
  locale: Locale
  /** The phone its join's browser named (iOS, Android, other), or the one said on its page; null from before it was recorded. */
  platform: Platform | null
  /** ISO 8601, UTC: when the app took its profile (POST /api/app/claim); null until then. */
  claimed_at: string | null
  /** The partner (its id, contract/partners.ts) whose embed it first joined through; null for every other way in. */
  partner: number | null
  /**
   * The import that brought it (contract/imports.ts; its `utm_source` says `import:<id>`), the basis
   * that import recorded for holding the address, and when it ran; null for a sign-up that joined itself.
   */
  import_id: number | null
  import_basis: string | null
  imported_at: string | null
}

/** GET /admin/api/stats */
export interface Stats {
  total: number
  /** Sign-ups per UTC day, oldest first; days without any are left out. */
  perDay: { day: string; count: number }[]
  /** Where sign-ups came from (utm_source, else the referring host, else null), most first. */
  perSource: { source: string | null; count: number }[]
}

/** GET /admin/api/signups: one page, and the id to ask for the next one (`after`), if any. */
export interface SignupsPage {
  items: SignUp[]
  next: number | null
}

/** GET /admin/api/mail: the outbox's queue, what became of every mail, and (without SMTP_URL) the local mailbox. */
export interface MailOverview {
  queue: QueueFigures
  /** Every mail's figures, counted as Deliverability counts each campaign's and domain's. */
  delivery: DeliveryFigures
  /** How mail leaves: through an SMTP server, or as files in MAIL_DIR. */
  transport: 'smtp' | 'files'
  /** The newest local mails first (files transport only). */
  local: LocalMail[]
}

export interface LocalMail {
  /** The file's name in MAIL_DIR; GET /admin/api/mail/local/<name> answers its preview. */
  name: string
  to: string
  subject: string
  /** ISO 8601, UTC. */
  date: string
}

/** GET /admin/api/mail/local/<name> */
export interface LocalMailPreview extends LocalMail {
  text: string
  html: string
  headers: Record<string, string>
}
