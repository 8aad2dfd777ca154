// The rules of a sign-up, in one place: what makes an address and its attribution storable.
// Pure, and speaking no protocol: each way in (the PostgREST insert, the no-script form) turns a
// failure into its own answer (docs/protocol.md, rows 14 to 18, in that order).
import {
  ATTRIBUTION_COLUMNS,
  type AttributionColumn,
  EMAIL_PATTERN,
  MAX_ATTRIBUTION_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_LOCAL_PART_LENGTH,
  type WaitlistRow,
} from '../../contract/waitlist.js'
import { readInviteCode } from '../../contract/growth.js'
import { readLocale } from '../../contract/locales.js'

/** Why a row cannot be stored, the first rule it breaks. */
export type RowFailure =
  | { rule: 'email-missing' }
  | { rule: 'nul-character' }
  | { rule: 'email-format' }
  | { rule: 'email-length' }
  | { rule: 'attribution-length'; column: AttributionColumn }

export type RowCheck = { ok: true; row: WaitlistRow } | { ok: false; failure: RowFailure }

export interface RowRules {
  /** BLOCK_DISPOSABLE_EMAIL: a domain this answers true for is refused as a malformed address. */
  blockedDomain?: ((domain: string) => boolean) | undefined
}

/** The address rule of the form's `<input type=email>`, with the lengths a mail system accepts. */
export function isValidEmail(email: string): boolean {
  if (!EMAIL_PATTERN.test(email)) return false
  const at = email.lastIndexOf('@')
  return email.length <= MAX_EMAIL_LENGTH && at <= MAX_LOCAL_PART_LENGTH
}

/** Checks one object's columns; answers the row to store, or the first rule it breaks. */
export function checkRow(input: Readonly<Record<string, unknown>>, rules: RowRules = {}): RowCheck {
  const fail = (failure: RowFailure): RowCheck => ({ ok: false, failure })
  const email = input.email
  if (email === undefined || email === null) return fail({ rule: 'email-missing' })
  const values = [email, ...ATTRIBUTION_COLUMNS.map((column) => input[column])]
  if (values.some((value) => asText(value)?.includes('\u0000'))) return fail({ rule: 'nul-character' })
  const text = asText(email) ?? ''
  if (!EMAIL_PATTERN.test(text)) return fail({ rule: 'email-format' })
  if (!isValidEmail(text)) return fail({ rule: 'email-length' })
  // Our extension: a disposable address is answered as the format rule answers a bad one.
  if (rules.blockedDomain?.(text.slice(text.lastIndexOf('@') + 1))) return fail({ rule: 'email-format' })
  // An inviter's code that is not well-formed is ignored, never refused: the sign-up matters more,
  // and the answer must not tell a well-formed code from any other (docs/protocol.md, "invite").
  const invite = readInviteCode(input.invite)
  // The same for the language: an unknown one is English (docs/decisions/016-languages.md).
  const row: WaitlistRow = {
    email: text,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    referrer: null,
    invite,
    locale: readLocale(input.locale),
  }
  for (const column of ATTRIBUTION_COLUMNS) {
    const value = asText(input[column])
    if (value !== null && value.length > MAX_ATTRIBUTION_LENGTH) return fail({ rule: 'attribution-length', column })
    row[column] = value
  }
  return { ok: true, row }
}

/** PostgreSQL stores a JSON number, boolean or object sent for a text column as its text. */
function asText(value: unknown): string | null {
  if (value === undefined || value === null) return null
  return typeof value === 'string' ? value : JSON.stringify(value)
}
