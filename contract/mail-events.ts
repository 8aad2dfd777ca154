// Bounces, complaints and the suppression list (docs/decisions/019-suppression.md): what the admin
// API takes and answers. Types and constants; this folder imports nothing but itself.

export const MAIL_EVENT_TYPES = ['hard-bounce', 'soft-bounce', 'complaint'] as const
export type MailEventType = (typeof MAIL_EVENT_TYPES)[number]

/** `imported`: by an import in `suppress` mode (a list's unsubscribed or cleaned addresses, contract/imports.ts). */
export const SUPPRESSION_REASONS = ['hard-bounce', 'soft-bounce', 'complaint', 'manual', 'imported'] as const
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number]

/** Soft bounces suppress an address from this many within SOFT_BOUNCE_DAYS. */
export const SOFT_BOUNCES_TO_SUPPRESS = 3
export const SOFT_BOUNCE_DAYS = 7

/** One entry of GET /admin/api/suppressions; `email` is null once its sign-up was deleted (the hash alone is kept). */
export interface Suppression {
  email: string | null
  reason: SuppressionReason
  /** ISO 8601, UTC. */
  at: string
}

/** How long a mail event's source may be (its column). */
export const MAIL_EVENT_SOURCE_MAX_LENGTH = 40
/** POST /admin/api/mail/events keeps its `source` under this prefix, apart from the providers' own… */
export const API_SOURCE_PREFIX = 'api:'
/** …so the source it takes is at most this long (36). */
export const API_SOURCE_MAX_LENGTH = MAIL_EVENT_SOURCE_MAX_LENGTH - API_SOURCE_PREFIX.length

/** POST /admin/api/mail/events: a bounce or complaint from a source of the team's own. */
export interface MailEventReport {
  email?: string
  /** The Message-ID of the mail it is about (`<key@domain>`), instead of the address. */
  messageId?: string
  type: MailEventType
  source: string
  /** The source's own id of the event: the same id twice counts once. */
  eventId?: string
}

/** A campaign pauses itself judging its last this many deliveries (all of them while fewer)… */
export const PAUSE_WINDOW = 500
/** …and never before this many. */
export const PAUSE_MIN_DELIVERIES = 20
