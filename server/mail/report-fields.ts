// Reading what a provider or a report sends about a mail of ours: JSON objects and text fields
// taken as they come, and the left part of a quoted Message-ID (`<key@kennect.app>`), the key our
// outbox made the mail under.
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A non-empty string, or null. */
export const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null)

/** The key of a Message-ID, with or without its angle brackets; null for anything else. */
export const messageKeyOf = (messageId: string | null | undefined): string | null =>
  /^<?([^@<>\s]+)@[^<>\s]+>?$/.exec((messageId ?? '').trim())?.[1] ?? null
