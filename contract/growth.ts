// Growing the list where it matters (docs/decisions/015-growth.md): invite links, each country's
// launch meter, and the funnel. What both sides know of them: the invite code's shape, the launch
// targets and their check, the answers of /api/launch and /admin/api/funnel. Types, constants and
// pure checks; this folder imports nothing but itself.
import type { PublicBreedCount } from './breed-meters.js'
import { type CountryCode, isCountryCode } from './countries.js'

/** The landing page's URL parameter, and the sign-up's column, that carry an inviter's code. */
export const INVITE_PARAM = 'invite'
export const MAX_INVITE_LENGTH = 64
/** A code as the server makes them (22 characters, 128 random bits) or any other well-formed one. */
export const INVITE_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/** A well-formed invite code, or null: anything else (too long, other characters) is ignored. */
export function readInviteCode(value: unknown): string | null {
  return typeof value === 'string' && INVITE_CODE_PATTERN.test(value) ? value : null
}

/** Confirmations credited to one inviter per UTC day; the rest are recorded, not counted. */
export const DAILY_INVITE_CREDITS = 20

/** The landing page says how many wait once this many sign-ups are confirmed. */
export const WAITING_SHOWN_FROM = 100
/**
 * What the build writes for the server to say in a landing page's slot (dist/landing.json, keyed
 * by the page's path): the page's own words, so the server holds no copy of its own.
 */
export interface LandingWords {
  /** The page's language: numbers and plurals follow it. */
  lang: string
  /** The hero's note, said while fewer than WAITING_SHOWN_FROM sign-ups are confirmed. */
  note: string
  /** How many wait, per plural category (`{count}` is the number); `other` always. */
  waiting: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }
  /** What the page says of the stores (STORE_SLOTS): `ios` for the App Store alone, `both` with Google Play. */
  stores: {
    eyebrow: { ios: string; both: string }
    subtext: { ios: string; both: string }
    /** The Google Play badge's HTML, written in beside the App Store's only with both stores. */
    playBadge: string
  }
}

/** How long /api/launch's answer may be reused, by us and by any cache on the way. */
export const LAUNCH_CACHE_SECONDS = 60

/** How many breeders and owners a country needs before the app opens there. */
export interface LaunchTarget {
  breeders: number
  owners: number
}

/** GET and PUT /admin/api/launch-targets: a default, and the countries that differ from it. */
export interface LaunchTargets {
  default: LaunchTarget
  countries: Partial<Record<CountryCode, LaunchTarget>>
}

export const DEFAULT_LAUNCH_TARGETS: LaunchTargets = { default: { breeders: 50, owners: 200 }, countries: {} }
export const MAX_LAUNCH_TARGET = 1_000_000

/** The targets of one country: its own, else the default. */
export function targetFor(targets: LaunchTargets, country: string): LaunchTarget {
  return targets.countries[country as CountryCode] ?? targets.default
}

/** Both targets met: the app can open there. */
export function isReady(count: LaunchTarget, target: LaunchTarget): boolean {
  return count.breeders >= target.breeders && count.owners >= target.owners
}

export type TargetsCheck = { ok: true; targets: LaunchTargets } | { ok: false; problems: string[] }

/**
 * The targets as sent (PUT /admin/api/launch-targets, `launch-targets --set FILE`), or every
 * problem, each naming its field (`countries.DE.owners: …`). Country codes are taken in any
 * letter case and kept upper case.
 */
export function checkLaunchTargets(input: unknown): TargetsCheck {
  const problems: string[] = []
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
  const target = (value: unknown, field: string): LaunchTarget | undefined => {
    if (!isObject(value)) {
      problems.push(`${field}: expected { "breeders": N, "owners": N }`)
      return undefined
    }
    for (const key of Object.keys(value)) if (key !== 'breeders' && key !== 'owners') problems.push(`${field}.${key}: unknown field`)
    const count = (key: 'breeders' | 'owners') => {
      const n = value[key]
      if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_LAUNCH_TARGET) return n
      problems.push(`${field}.${key}: expected a whole number from 0 to 1,000,000, got ${JSON.stringify(n ?? null)}`)
      return 0
    }
    return { breeders: count('breeders'), owners: count('owners') }
  }
  if (!isObject(input)) return { ok: false, problems: ['body: expected { "default": …, "countries": … }'] }
  for (const key of Object.keys(input)) if (key !== 'default' && key !== 'countries') problems.push(`${key}: unknown field`)
  const fallback = target(input.default, 'default')
  const countries: LaunchTargets['countries'] = {}
  if (input.countries !== undefined && !isObject(input.countries)) problems.push('countries: expected an object keyed by country code')
  else {
    for (const [code, value] of Object.entries(input.countries ?? {})) {
      const upper = code.toUpperCase()
      if (!isCountryCode(upper)) {
        problems.push(`countries.${code}: unknown country code (expected ISO 3166-1 alpha-2, such as DE)`)
        continue
      }
      if (countries[upper]) problems.push(`countries.${code}: given twice`)
      const checked = target(value, `countries.${code}`)
      if (checked) countries[upper] = checked
    }
  }
  if (problems.length > 0 || !fallback) return { ok: false, problems }
  return { ok: true, targets: { default: fallback, countries } }
}

/** One country's launch meter: confirmed, subscribed sign-ups by role, against its target. */
export interface CountryMeter {
  country: CountryCode
  breeders: number
  owners: number
  target: LaunchTarget
  ready: boolean
}

/**
 * GET /api/launch: every count as a public figure (contract/public-figures.ts: a band's lower bound
 * once a secret offset is taken off, or null); a country or a breed × country listed where one of
 * its figures shows.
 */
export interface LaunchAnswer {
  countries: PublicCountryMeter[]
  breeds: PublicBreedCount[]
}

/** GET /admin/api/funnel: one UTC day. */
export interface FunnelDay {
  day: string
  /** Landing-page views counted as the server sent them (no bots, prefetches or HEAD). */
  views: number
  /** Distinct visitors that day (a keyed hash that lives one day). */
  visitors: number
  /** Sign-ups made that day, and of them, how many confirmed, told their profile, brought a confirmed sign-up. */
  signups: number
  confirmed: number
  profiled: number
  inviters: number
}

/** Where visitors and sign-ups came from: utm_source, else the referring host, else "direct". */
export interface FunnelSource {
  /** utm_source, else the referring site, else `direct`; for a partner's sign-ups, the partner's name. */
  source: string
  /** The partner (its id) whose embed these sign-ups first came through; null for every other source. */
  partner: number | null
  views: number
  visitors: number
  signups: number
  confirmed: number
}

/**
 * Into the app (contract/app.ts): people sent a mail holding their app link, people whose /app/
 * page was served at least once (the app, when installed, opens the link without asking us), and
 * people whose profile the app took. Each counted once per person when it first happened, by the
 * country and breeds they had said then; not bound to the funnel's days, and kept when a sign-up
 * is deleted later (what happened, happened).
 */
export interface HandOffTally extends HandOffCounts {
  /** Per country ('' where none was said), the most invited first. */
  countries: ({ country: string } & HandOffCounts)[]
  /** Per breed of the catalogue (a person once per breed), the most invited first. */
  breeds: ({ breed: string } & HandOffCounts)[]
}

/** The hand-off as /admin/api/funnel says it: each breed's id, and its name in the caller's language. */
export interface FunnelHandOff extends Omit<HandOffTally, 'breeds'> {
  breeds: ({ breed: string; name: string } & HandOffCounts)[]
}

export interface Funnel {
  days: FunnelDay[]
  sources: FunnelSource[]
  /** With a breed asked for: that breed's people only (its row of `breeds`). */
  handOff: FunnelHandOff
  /** When the cohorts (sign-ups, confirmed, profiled, inviters) were counted: as Segments' countedAt. */
  countedAt: string
}

/**
 * Sign-ups per visit of the landing page (a day's visitors), as the funnel says it on the admin page
 * and the command line: a rate with two significant digits ("0.046", "3"), never a share of the
 * visitors. A sign-up sent straight to the API (an app, another site's form) visited no page, so a
 * day may have more sign-ups than visitors: as a share it read "300.0 %" (issue 49). Null without a visitor.
 */
export function signupsPerVisit(signups: number, visitors: number, locale = 'en'): string | null {
  return visitors === 0 ? null : (signups / visitors).toLocaleString(locale, { maximumSignificantDigits: 2 })
}

/** The source of a view or a sign-up that came with no campaign and no referring site. */
export const DIRECT_SOURCE = 'direct'
/** The longest span one funnel answer covers. */
export const MAX_FUNNEL_DAYS = 400

/** One country's launch meter as the public sees it (GET /api/launch, the visitor's page). */
export interface PublicCountryMeter {
  country: CountryCode
  /** The band's lower bound ("20": 20 or more), or null: too few to show yet. */
  breeders: number | null
  owners: number | null
  target: LaunchTarget
  ready: boolean
}

/** The hand-off's three steps: counted once per person, when it first happened. */
export const HAND_OFF_STEPS = ['invited', 'opened', 'claimed'] as const
export type HandOffStep = (typeof HAND_OFF_STEPS)[number]
export type HandOffCounts = Record<HandOffStep, number>
