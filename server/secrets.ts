import { createHash, timingSafeEqual } from 'node:crypto'

/** Constant-time comparison of two secrets of any length (hashing first equalises the lengths). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest()
  return timingSafeEqual(digest(a), digest(b))
}
