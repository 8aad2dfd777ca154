import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** Constant-time comparison of two secrets of any length (hashing first equalises the lengths). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest()
  return timingSafeEqual(digest(a), digest(b))
}

/** A token for a visitor's page link: 256 random bits, URL-safe (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

/** What is stored of a token: its SHA-256 in hex. A stolen table opens no page. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** A token's shape: anything else is answered as unknown without a lookup. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

/**
 * A sign-up's invite code: 128 random bits, URL-safe (22 characters), never derived from the
 * address. Not a secret (it is meant to be shared), so it is kept as it is.
 */
export function newInviteCode(): string {
  return randomBytes(16).toString('base64url')
}

/**
 * A sign-up's app link code (/app/<code>): 128 random bits, URL-safe (22 characters), its own
 * secret, never the page token nor anything of the address (contract/app.ts APP_CODE_PATTERN).
 */
export function newAppCode(): string {
  return randomBytes(16).toString('base64url')
}
