// The sign-up as both sides know it: the row, its columns and limits, the address rule, the
// campaign parameters a page passes on, and the outcomes of the no-script form. Types, constants
// and pure functions only; this folder imports nothing (docs/protocol.md, "The request").
import type { Platform } from './app.js'
import type { Locale } from './locales.js'

/** The table the page inserts into, as a Supabase project names it. */
export const WAITLIST_TABLE = 'waitlist'

/** The campaign parameters of a page's URL that travel with a sign-up. */
export const UTM_COLUMNS = ['utm_source', 'utm_medium', 'utm_campaign'] as const
export type UtmColumn = (typeof UTM_COLUMNS)[number]

/** Where a sign-up came from: the campaign, and the referring site's host. */
export const ATTRIBUTION_COLUMNS = [...UTM_COLUMNS, 'referrer'] as const
export type AttributionColumn = (typeof ATTRIBUTION_COLUMNS)[number]

/**
 * What the public may write; everything else is set by the database. `invite` is an inviter's
 * code (contract/growth.ts): a malformed or unknown one is ignored, never refused. `locale` is the
 * page's language (contract/locales.ts): an unknown one is English, never refused.
 */
export const INSERTABLE_COLUMNS = ['email', ...ATTRIBUTION_COLUMNS, 'invite', 'locale'] as const
export const SERVER_SET_COLUMNS = ['id', 'created_at'] as const

export const MAX_EMAIL_LENGTH = 254
export const MAX_LOCAL_PART_LENGTH = 64
export const MAX_ATTRIBUTION_LENGTH = 200

/** The WHATWG rule behind `<input type=email>` (docs/protocol.md, "A valid address"). */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

/**
 * One sign-up as it is inserted: `invite` is a well-formed code or null, `locale` one of ours;
 * `platform` is the phone its request's user agent names, `partner` the id of the partner whose
 * embed it came through (contract/partners.ts), both set by the server (never sent by the public;
 * absent: not known, none).
 */
export type WaitlistRow = { email: string; invite: string | null; locale: Locale; platform?: Platform; partner?: number } & Record<
  AttributionColumn,
  string | null
>

/** The campaign a page's URL carries (trimmed, cut to the column's length), for either side to send. */
export function readCampaign(params: URLSearchParams): Partial<Record<UtmColumn, string>> {
  const campaign: Partial<Record<UtmColumn, string>> = {}
  for (const key of UTM_COLUMNS) {
    const value = params.get(key)?.trim()
    if (value) campaign[key] = value.slice(0, MAX_ATTRIBUTION_LENGTH)
  }
  return campaign
}

/**
 * The answers of the no-script form (`POST /join`): the server redirects to `/#waitlist-<outcome>`
 * and the page shows that message by CSS alone.
 */
export const JOIN_OUTCOMES = ['joined', 'invalid', 'expired', 'busy', 'error'] as const
export type JoinOutcome = (typeof JOIN_OUTCOMES)[number]
