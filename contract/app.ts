// Into the app (docs/decisions/022-into-the-app.md, docs/launch.md): each sign-up's app link
// /app/<code>, the phones a sign-up may name, the claim the app makes with an `app`-role token, and
// the hand-off's figures. Types, constants and pure checks; this folder imports nothing but itself.
import type { CountryCode } from './countries.js'
import type { Locale } from './locales.js'
import type { HealthTest, KennelClub, Litters, Role, Side } from './visitor.js'

/** Where app links live: `/app/<code>`. The apps open this path; a browser gets the store. */
export const APP_PATH = '/app'
/** Where the app claims a profile (POST, an `app` token as Bearer). */
export const APP_CLAIM_PATH = '/api/app/claim'
/** The two files that let the iOS and Android apps open app links. */
export const APPLE_ASSOCIATION_PATH = '/.well-known/apple-app-site-association'
export const ASSET_LINKS_PATH = '/.well-known/assetlinks.json'

/**
 * A code as the server makes them: 128 random bits, base64url (22 characters), its own secret
 * (never the /me/ token). Anything else is answered as unknown without a look in the store.
 */
export const APP_CODE_PATTERN = /^[A-Za-z0-9_-]{22}$/

import type { Platform } from './platform.js'

export { isPlatform, type Platform, PLATFORMS } from './platform.js'

/**
 * The install referrer's parameter that carries the code on Android: an Android sign-up's
 * {{store_url}} is the Play listing with `&referrer=code%3D<code>`, which Google Play hands to
 * the app after the install (the Play Install Referrer API).
 */
export const PLAY_REFERRER_CODE = 'code'

/**
 * Wrong codes (codes no sign-up has) one client may send to the claim in a minute: a client is the
 * app token with the address it calls from (as TRUST_PROXY says it; an IPv6 client per /64). Every
 * copy of the app carries the same token, so the token alone would be a switch anyone could hold.
 * Past it, that client's claims wait for the window's end (429), the right code's too (else a guess
 * would learn from the answer); other clients go on. A right code takes nothing from the budget.
 */
export const WRONG_CODES_PER_CLIENT_PER_MINUTE = 30
/**
 * Wrong codes one token may send in a minute from all its clients together: the last resort, for a
 * guess spread over many addresses (a hundred clients' worth). Only the codes a client's own budget
 * let through count here, so one address's flood never reaches it; and past it, a client's first
 * code in its window still goes through, so a claim from a clean address is never held off.
 */
export const WRONG_CODES_PER_TOKEN_PER_MINUTE = 100 * WRONG_CODES_PER_CLIENT_PER_MINUTE
/** Codes that open nothing one address may ask /app/ for in a minute: the claim's budget, per address. */
export const UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE = WRONG_CODES_PER_CLIENT_PER_MINUTE
/** The window of the three budgets above: a minute from the client's first claim (or page) in it. */
export const WRONG_CODE_WINDOW_MS = 60_000

/**
 * How long a claim's 200 may be asked for again, by the same token from the same address, for an app
 * whose answer was lost (a timeout, a dropped connection); after it, or from anyone else, 409.
 */
export const CLAIM_AGAIN_MS = 10 * 60_000

/** POST /api/app/claim: the error code of a second claim of one code (409). */
export const ALREADY_CLAIMED = 'already_claimed'

/** POST /api/app/claim 200: the sign-up's profile as the app needs it. */
export interface AppProfile {
  email: string
  locale: Locale
  country: CountryCode | null
  role: Role | null
  platform: Platform | null
  /** `id`: the catalogue's (contract/breeds.json), or null for a name it does not know. */
  breeds: { id: string | null; name: string; side: Side | null; tests: HealthTest[] }[]
  kennelClub: KennelClub | null
  litters: Litters | null
  /** ISO 8601, UTC. */
  signedUpAt: string
  confirmedAt: string | null
}

export type { AppPageView } from './visitor.js'

export { HAND_OFF_STEPS, type HandOffCounts, type HandOffStep } from './growth.js'
