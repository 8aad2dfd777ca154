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

/**
 * The phone a sign-up uses, as its join's user agent named it, or as they said on their page:
 * `other` is a desktop, or a phone of neither kind.
 */
export const PLATFORMS = ['ios', 'android', 'other'] as const
export type Platform = (typeof PLATFORMS)[number]

export const isPlatform = (value: unknown): value is Platform =>
  typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value)

/**
 * The install referrer's parameter that carries the code on Android: an Android sign-up's
 * {{store_url}} is the Play listing with `&referrer=code%3D<code>`, which Google Play hands to
 * the app after the install (the Play Install Referrer API).
 */
export const PLAY_REFERRER_CODE = 'code'

/** Wrong codes one app token may send in a minute; past it, claims wait for the next minute (429). */
export const WRONG_CODES_PER_MINUTE = 30
export const WRONG_CODE_WINDOW_MS = 60_000

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

/** What the /app/<code> page shows a browser (the app, when installed, opens the link itself). */
export interface AppPageView {
  /** The sign-up's language. */
  locale: Locale
  /** The phone the page was opened on, as its user agent names it. */
  device: Platform
  /** The store buttons to show, each only when its address is set. */
  appStoreUrl: string | null
  /** The Play listing, with the code as its install referrer. */
  playStoreUrl: string | null
  /** The code itself, for an iPhone to give the app once after installing (iOS keeps no install referrer). */
  code: string
}

/** The hand-off's three steps: counted once per person, when it first happened. */
export const HAND_OFF_STEPS = ['invited', 'opened', 'claimed'] as const
export type HandOffStep = (typeof HAND_OFF_STEPS)[number]
export type HandOffCounts = Record<HandOffStep, number>
