// Partners (docs/decisions/025-partners.md): a breed club or kennel that puts the waitlist on its own
// site, by a public key bound to its origins. What the admin API takes and answers, the embed's
// paths, and the rules an origin and a thank-you address follow. Types, constants and pure checks;
// this folder imports nothing but itself.
import type { CountryCode } from './countries.js'
import type { PublicCountryMeter } from './growth.js'
import type { Locale } from './locales.js'
import type { RenderedPage, VisitorBreedMeter } from './visitor.js'

/** The script a partner's page loads, and the iframe form, its join and its session under the prefix. */
export const EMBED_SCRIPT_PATH = '/embed.js'
export const EMBED_PREFIX = '/embed'
/** The iframe form (and the thank-you page of a form without a thanks URL): `/embed/<key>`. */
export const embedPath = (key: string) => `${EMBED_PREFIX}/${key}`
/** The join of all three ways in: JSON from the script, a form post from the iframe and the snippet. */
export const embedJoinPath = (key: string) => `${EMBED_PREFIX}/${key}/join`
/** What the script asks for before it shows its form: the form's token, its words and the meter. */
export const embedSessionPath = (key: string) => `${EMBED_PREFIX}/${key}/session`

/**
 * The iframe's height in the snippet, in CSS pixels: the box at 320 px wide and more, in the longest
 * of the six languages, without and with the meter (tests/browser/embed.test.ts measures it).
 */
export const EMBED_FRAME_HEIGHT = { form: 310, meter: 580 } as const

/** A partner key: 128 random bits in base64url (22 characters). Public, bound to the partner's origins. */
export const PARTNER_KEY_PATTERN = /^[A-Za-z0-9_-]{22}$/

export const PARTNER_NAME_MAX = 100
export const PARTNER_ORIGINS_MAX = 10
/** An origin is short; a thank-you address may carry a path and a query. */
export const PARTNER_ORIGIN_MAX = 200
export const PARTNER_URL_MAX = 2048

/** Hosts an `http://` origin may have: this machine, for trying the embed out before it goes live. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])
/** A host as the parser gives it: letters, digits, dots, hyphens (an IDN is punycode by then), or an IPv6 literal (CSP's host grammar has no `_`). */
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])$/
const isLoopback = (hostname: string) => LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost')

/**
 * An origin as it is kept (scheme, host in lower case, a port other than the scheme's), or why it
 * is not one: `https://`, or `http://` on a loopback host; no user, path (but `/`), query or fragment.
 */
export function readOrigin(text: string): { origin: string } | { problem: string } {
  const typed = text.trim()
  if (typed.length > PARTNER_ORIGIN_MAX) return { problem: `at most ${PARTNER_ORIGIN_MAX} characters` }
  if (!URL.canParse(typed)) return { problem: `not an origin such as https://club.example, got ${JSON.stringify(typed)}` }
  const url = new URL(typed)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname)))
    return { problem: `https:// (or http:// on localhost or 127.0.0.1, for trying it out), got ${JSON.stringify(typed)}` }
  if (url.username !== '' || url.password !== '') return { problem: `no user or password in an origin, got ${JSON.stringify(typed)}` }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(typed))
    return { problem: `an origin is scheme, host and port only, no path, got ${JSON.stringify(typed)}` }
  // The URL parser keeps `*`, `;` and `,` in a host: a wildcard or a list, which the iframe's
  // frame-ancestors would read as more than this one origin (or as another directive).
  if (!HOST.test(url.hostname)) return { problem: `a host name or an IP address, one origin, got ${JSON.stringify(typed)}` }
  return { origin: url.origin }
}

/** A thank-you address: http(s), on one of the origins, or why not. */
export function thanksUrlProblem(text: string, origins: readonly string[]): string | null {
  if (text.length > PARTNER_URL_MAX) return `at most ${PARTNER_URL_MAX} characters`
  if (!URL.canParse(text)) return `not an address, got ${JSON.stringify(text)}`
  const url = new URL(text)
  if (url.username !== '' || url.password !== '') return 'no user or password in the address'
  if (!origins.includes(url.origin)) return `must be on one of the partner's origins (${origins.join(', ')}), got ${url.origin}`
  return null
}

/** GET /admin/api/partners (each item), and what a change answers. */
export interface Partner {
  id: number
  name: string
  /** The public key its embed carries (not a secret: it works only on the origins). */
  key: string
  origins: string[]
  thanksUrl: string | null
  /** The catalogue's id of the partner's breed, for its meter. */
  breed: string | null
  /** That breed's name in the caller's language (an operator's own; English for a token). */
  breedName: string | null
  /** Where its meter counts. */
  country: CountryCode | null
  disabled: boolean
  createdAt: string
  /** Sign-ups that first joined through it. */
  signups: number
  /** Of them, the ones who confirmed their address: its credit. */
  confirmed: number
}

/** POST /admin/api/partners */
export interface PartnerRequest {
  name: string
  origins: string[]
  thanksUrl?: string | null
  /** A catalogue id, or any name the catalogue reads (in any of the six languages). */
  breed?: string | null
  country?: string | null
}

/** PATCH /admin/api/partners/:id: any of these. */
export interface PartnerChange extends Partial<PartnerRequest> {
  disabled?: boolean
}

/** GET /admin/api/partners/:id: the partner, with its sign-ups per country and per breed (exact: the team's). */
export interface PartnerDetail extends Partner {
  countries: { country: CountryCode | null; signups: number; confirmed: number }[]
  /** `id`: the catalogue's, or null for a name it does not know (shown as typed). Each person once per breed. */
  breeds: { id: string | null; name: string; signups: number; confirmed: number }[]
}

/** GET /admin/api/partners/:id/snippets?lang=: the three ways onto a partner's site, ready to paste. */
export interface PartnerSnippets {
  locale: Locale
  script: string
  iframe: string
  form: string
}

/** The words the script shows, in one language (from the page's catalogue). */
export interface EmbedWords {
  /** The form's name ("Join the waitlist"). */
  title: string
  intro: string
  emailLabel: string
  emailPlaceholder: string
  submit: string
  submitting: string
  honeypotLabel: string
  privacyLink: string
  /** What a join came to, as the page's toasts say it. */
  joined: { title: string; description: string }
  failed: { title: string; description: string }
  invalid: { title: string; description: string }
  expired: { title: string; description: string }
  busy: { title: string; description: string }
}

/** The meter under the form: the visitor's page's, for the partner's breed (or country) in its country. */
export interface EmbedMeter {
  /** Over a breed's meter: what it is and where. */
  heading: string | null
  /** The meter's sentence, with the public figures ("10+ breeders with a stud, …"). */
  sentence: string
  /** Each bar, drawn from the figure shown (0 when none): never an exact count. */
  bars: { label: string; percent: number }[]
  /** "Ready" as the public may say it, or null. */
  ready: string | null
  /** What a breed needs to open (a country's meter says its targets in its sentence). */
  target: string | null
}

/** GET /embed/<key>/session?lang=: what the script needs before its form is usable. */
export interface EmbedSession {
  /** The product's name, as the box introduces it. */
  product: string
  locale: Locale
  /** The form's signed issue time: the join checks that a person's time has passed since. */
  token: string
  /** Milliseconds from now before the join takes the token: a join sooner is not stored, so the script waits them out after a fresh one. */
  readyInMs: number
  words: EmbedWords
  /** The privacy section of the page in this language. */
  privacyUrl: string
  meter: EmbedMeter | null
}

/** The body the script posts (JSON); the iframe and the snippet post the same fields as a form. */
export interface EmbedJoin {
  email: string
  locale?: string
  /** The session's token (the script, the iframe); the static snippet has none. */
  token?: string
  /** The honeypot: a person leaves it empty. */
  website?: string
}

/** Where a form post ends when it did not go to the partner's thank-you address: shown on `/embed/<key>?sent=`. */
export const EMBED_OUTCOMES = ['joined', 'invalid', 'expired', 'busy', 'error'] as const
export type EmbedOutcome = (typeof EMBED_OUTCOMES)[number]

/** The `data-*` values the script reads (all as text; anything it does not know is ignored). */
export const EMBED_THEMES = ['light', 'dark', 'auto'] as const
export type EmbedTheme = (typeof EMBED_THEMES)[number]
export const ACCENT_PATTERN = /^#[0-9a-fA-F]{6}$/

/**
 * The meter a partner's embed shows, as the visitor's page shows it for the same breed and country
 * (public figures only): its breed's meter in its country, or, with no breed, its country's.
 */
export type EmbedMeterView =
  { kind: 'breed'; country: CountryCode; meter: VisitorBreedMeter } | { kind: 'country'; country: CountryCode; meter: PublicCountryMeter }

/** The iframe form (`/embed/<key>`), also the thank-you page of a form without a thanks URL. */
export interface EmbedPageView {
  locale: Locale
  /** Where the form posts (its join). */
  action: string
  /** The form's signed issue time. */
  token: string
  /** What the last post came to, shown above the form; null for a fresh form. */
  sent: EmbedOutcome | null
  privacyUrl: string
  theme: EmbedTheme
  accent: string | null
  meter: EmbedMeterView | null
}

/** What the build's render module (dist/visitor/render.js) answers for the embed: its words and its page. */
export interface EmbedRender {
  words(locale: Locale): EmbedWords
  /** The meter's words in a language: the visitor's page's for the same figures. */
  meter(view: EmbedMeterView, locale: Locale): EmbedMeter
  /** The page's body and the stylesheet it needs (the server inlines it under its hash). */
  page(view: EmbedPageView): RenderedPage & { css: string }
}
