// What became of mails, in one shape and by one arithmetic for every view that says it: the Mail
// view, `mail status`, Deliverability and each campaign's own figures (docs/decisions/021-tallies.md).
// Types and pure functions; this folder imports nothing but itself.

/**
 * What became of a set of mails. Every figure but `unsubscribed` counts mails; a campaign mails
 * each recipient once, so there it counts people too.
 */
export interface DeliveryFigures {
  /** Handed to the mail server: accepted (sent), or refused at once (bounced). */
  sent: number
  /** Sent, less the hard bounces: what the mail servers took and did not report dead. */
  delivered: number
  /** Refused for good at once (a 5xx), or reported as a hard bounce later. */
  hardBounced: number
  /** Reported as a temporary failure (a soft bounce) at least once. */
  softBounced: number
  /** Reported as spam by their recipient. */
  complained: number
  /** Recipients who stopped e-mails at or after the mail was sent to them (a complaint stops them too). */
  unsubscribed: number
}

/** What the store counts of a set of mails (its tallies' fields): the figures are made from these alone. */
export interface MailCounts {
  /** Handed to the mail server. */
  sent: number
  /** Of them, refused at once. */
  refused: number
  /** Of those it took, reported as a hard bounce later. */
  hard: number
  soft: number
  complained: number
  unsubscribed: number
}

export const MAIL_COUNTS = [
  'sent',
  'refused',
  'hard',
  'soft',
  'complained',
  'unsubscribed',
] as const satisfies readonly (keyof MailCounts)[]

export function deliveryFigures(counts: MailCounts): DeliveryFigures {
  const hardBounced = counts.refused + counts.hard
  return {
    sent: counts.sent,
    delivered: counts.sent - hardBounced,
    hardBounced,
    softBounced: counts.soft,
    complained: counts.complained,
    unsubscribed: counts.unsubscribed,
  }
}

/** Mails not yet handed over: waiting (queued), at the mail server now (sending), or given up after their retries (failed). */
export interface QueueFigures {
  queued: number
  sending: number
  failed: number
}
