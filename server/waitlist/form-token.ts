// The timestamp the no-script form carries (docs/decisions/003-no-script-form.md): the server puts a signed
// issue time into the page it sends; the post must come back with it, untouched, neither sooner
// than a person could fill the form nor later than a day.
import { createHmac, randomBytes } from 'node:crypto'
import { sameSecret } from '../secrets.js'

export const TOKEN_MAX_AGE_MS = 24 * 60 * 60 * 1000
/** Clocks of several instances disagree a little; a token from the near future is still good. */
const CLOCK_SKEW_MS = 60_000

/** ok: store the sign-up. tooFast: a bot (show success, store nothing). invalid: ask to resend. */
export type TokenCheck = 'ok' | 'tooFast' | 'invalid'

export interface FormTokens {
  issue(now?: number): string
  check(token: string | undefined, now?: number): TokenCheck
  /** true when no FORM_SECRET was given: tokens die with the process (README, Configuration). */
  readonly ephemeral: boolean
  /** How long a token must be held before a join takes it (FORM_MIN_SECONDS). */
  readonly minAgeMs: number
}

export function formTokens(secret: string | undefined, minAgeMs: number): FormTokens {
  const key = secret ?? randomBytes(32).toString('base64')
  const sign = (issuedAt: string) => createHmac('sha256', key).update(`kennect-form:${issuedAt}`).digest('base64url').slice(0, 22)
  return {
    ephemeral: secret === undefined,
    minAgeMs,
    issue(now = Date.now()) {
      const issuedAt = now.toString(36)
      return `${issuedAt}.${sign(issuedAt)}`
    },
    check(token, now = Date.now()) {
      const [issuedAt = '', signature = '', ...rest] = (token ?? '').split('.')
      if (rest.length > 0 || !/^[0-9a-z]{1,12}$/.test(issuedAt) || !sameSecret(signature, sign(issuedAt))) return 'invalid'
      const age = now - parseInt(issuedAt, 36)
      if (age < -CLOCK_SKEW_MS || age > TOKEN_MAX_AGE_MS) return 'invalid'
      return age < minAgeMs ? 'tooFast' : 'ok'
    },
  }
}
