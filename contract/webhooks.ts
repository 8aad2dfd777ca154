// Webhooks (docs/decisions/018-webhooks.md): the events an endpoint may take, and what the admin
// API answers about endpoints and their deliveries. Constants and types only.

export const WEBHOOK_EVENTS = [
  'signup.created',
  'signup.confirmed',
  'signup.profile_updated',
  'signup.unsubscribed',
  'signup.deleted',
  /** The app took the profile (POST /api/app/claim): the sign-up's payload and `claimedAt`. */
  'signup.claimed',
  'invite.confirmed',
  'campaign.finished',
  'campaign.paused',
  'country.ready',
  /** An import ended (done, failed or cancelled): its id, status and counts, never an address (contract/imports.ts). */
  'import.completed',
] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

export const isWebhookEvent = (value: unknown): value is WebhookEvent =>
  typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value)

/** The longest URL an endpoint may have. */
export const WEBHOOK_URL_MAX = 2048

/** How long after a rotation the old secret still signs. */
export const WEBHOOK_OLD_SECRET_MS = 24 * 60 * 60_000

/**
 * When a failed delivery is tried again, after each failed attempt (Standard Webhooks' schedule);
 * after the last, it has failed. Each wait is moved by up to a tenth either way.
 */
export const WEBHOOK_RETRY_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 60 * 60_000,
  5 * 60 * 60_000,
  10 * 60 * 60_000,
  10 * 60 * 60_000,
] as const

/** An endpoint failing this long without a delivery is disabled, and the owners are told. */
export const WEBHOOK_FAILING_MS = 5 * 24 * 60 * 60_000

/** The delivery log is kept this long. */
export const WEBHOOK_LOG_KEPT_MS = 30 * 24 * 60 * 60_000

/**
 * Why the server disabled an endpoint, as a code the API answers and the store keeps: `gone`, it
 * answered 410 Gone; `failing`, no delivery succeeded for WEBHOOK_FAILING_MS. The admin page, the
 * owners' mail and the command line put it in words (locales/admin's `webhooks.disabledReasons`).
 */
export const WEBHOOK_DISABLED_REASONS = ['gone', 'failing'] as const
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number]

/** A reason in words, by a translator of the admin catalogues (the page's or the server's, in an operator's language). */
export function disabledReasonWords(t: (key: string, values?: { count: number }) => string, reason: WebhookDisabledReason): string {
  switch (reason) {
    case 'gone':
      return t('webhooks.disabledReasons.gone')
    case 'failing':
      return t('webhooks.disabledReasons.failing', { count: Math.round(WEBHOOK_FAILING_MS / (24 * 60 * 60_000)) })
    default:
      return reason satisfies never
  }
}

/** Whether a stored value is one of the reasons (a row written by anything else shows none). */
export const isDisabledReason = (value: unknown): value is WebhookDisabledReason =>
  (WEBHOOK_DISABLED_REASONS as readonly unknown[]).includes(value)

/** GET /admin/api/webhooks: an endpoint, without its secret. */
export interface WebhookEndpoint {
  id: number
  url: string
  description: string
  events: WebhookEvent[]
  enabled: boolean
  includeEmail: boolean
  /** Why it was disabled by the server, if it was. */
  disabledReason: WebhookDisabledReason | null
  failingSince: string | null
  createdAt: string
}

/** GET /admin/api/webhooks/:id/deliveries: one attempt. */
export interface WebhookAttempt {
  id: number
  deliveryId: number
  event: string
  webhookId: string
  attempt: number
  at: string
  durationMs: number
  status: number | null
  /** The first 200 bytes of the answer. */
  response: string | null
  error: string | null
  /** The delivery's state now. */
  state: 'pending' | 'delivering' | 'delivered' | 'failed'
}
