// Launch day: who is waiting where (the demand map), and the campaigns that invite them. What the
// admin API answers and takes; types, constants and pure checks, importing nothing outside itself.
import type { Platform } from './app.js'
import type { CountryMeter, LaunchTargets } from './growth.js'
import type { Locale } from './locales.js'
import type { DeliveryFigures } from './mail-figures.js'
import type { Segment } from './segment.js'
import type { Role } from './visitor.js'

/** GET /admin/api/segments: the demand map. */
export interface Segments {
  total: number
  confirmed: number
  unsubscribed: number
  /**
   * People an import brought in who never confirmed (contract/imports.ts), apart from those who
   * joined themselves: counted in `total`, in none of the figures below; per country (null: not said).
   * Once they confirm, they are counted as anyone.
   */
  imported: { total: number; byCountry: { country: string | null; total: number }[] }
  /** People whose profile the app has taken (no longer waiting: they are in the app), counted when it happened. */
  claimed: number
  /** Sign-ups per role × country (null: not said), confirmed or not; the largest first. */
  byRoleCountry: { role: Role | null; country: string | null; confirmed: number; unconfirmed: number }[]
  /** Per country (null: not said): how many of each role wait there; the largest first. */
  byCountry: {
    country: string | null
    breeders: number
    owners: number
    clubs: number
    enthusiasts: number
    unsaid: number
    total: number
    /** Of them, the phones their joins' browsers named or they said: iPhone, Android. */
    ios: number
    android: number
    /** People of this country (as they said when it happened) whose profile the app has taken. */
    claimed: number
  }[]
  /** Sign-ups per phone (null: a sign-up from before the phone was recorded), unsubscribed left out, the most first. */
  byPlatform: { platform: Platform | null; total: number; confirmed: number }[]
  /** The most named breeds, each person once per breed whatever its spellings, and who named them; the most named first. */
  /** `id`: the catalogue's, or null for a name it does not know (counted by the name as matching reads it). */
  topBreeds: { id: string | null; breed: string; breeders: number; owners: number; others: number; total: number }[]
  /** Each country's launch meter (every country with a confirmed, subscribed sign-up), the readiest first. */
  meters: CountryMeter[]
  targets: LaunchTargets
  /** The sign-ups whose links brought the most confirmed sign-ups. */
  topInviters: { id: number; email: string; joined: number; confirmed: number }[]
  /** Sign-ups per language (unsubscribed left out), the most first. */
  byLocale: { locale: Locale; total: number; confirmed: number }[]
  /**
   * When the figures only the rows can answer were counted (ISO time): the most named breeds and the
   * top inviters, and with a breed every figure. Counted when asked while the list is under 50,000;
   * above, kept, and counted again behind the answer once a minute old (server/store/shared/figure-cache.ts). The rest is exact now.
   */
  countedAt: string
}

/** Who a campaign goes to: made from the fields' definition (./segment.ts), where each field is described. */
export type { Segment }

/**
 * Words in English alone (a string), or per language (`{ en: …, de: … }`): English is required,
 * and a recipient whose language has none gets English.
 */
export type Localized = string | ({ en: string } & Partial<Record<Locale, string>>)

/** The words of each language, English first: what a Localized value says per language. */
export function byLanguage(value: Localized): { en: string } & Partial<Record<Locale, string>> {
  return typeof value === 'string' ? { en: value } : value
}

/** POST /admin/api/campaigns */
export interface CampaignRequest {
  subject: Localized
  /** The message in Markdown, with {{my_page_url}}, {{app_link}}, {{store_url}} or {{app_store_url}} where those links go. */
  markdown: Localized
  segment: Segment
  /** true: queue it for its recipients now; false: a draft, counted and rendered. */
  send: boolean
}

/**
 * The links a campaign's Markdown may place: the recipient's own page; their own app link
 * (SITE_URL/app/<code>: the app opens it, a browser gets the store for its phone); the store for
 * their phone (the App Store, Google Play with their code as install referrer, or for a phone not
 * known their app link, whose page offers both); and the App Store for everyone.
 */
export const PLACEHOLDERS = ['my_page_url', 'app_link', 'store_url', 'app_store_url'] as const
export type Placeholder = (typeof PLACEHOLDERS)[number]

/** The placeholders a text uses, known or not, each once, in order. */
export function placeholdersIn(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((match) => match[1] ?? ''))]
}

export const MAX_SUBJECT_LENGTH = 200
export const MAX_MARKDOWN_LENGTH = 50_000

/** draft: not sent; sending: its mails are being sent; paused: held; finished: none waits any more. */
export const CAMPAIGN_STATUSES = ['draft', 'sending', 'paused', 'finished'] as const
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number]

/** GET /admin/api/campaigns/:id, and each item of GET /admin/api/campaigns */
export interface CampaignProgress {
  id: number
  subject: string
  status: CampaignStatus
  recipients: number
  /** Waiting or being sent now. */
  queued: number
  /** Given up after their retries: never handed over. */
  failed: number
  /** What became of the mails handed over: the figures Deliverability shows for the campaign. */
  delivery: DeliveryFigures
  /** ISO 8601, UTC. */
  created_at: string
  segment: Segment
  /** Why the campaign paused itself (its hard bounces or complaints over its last deliveries); null otherwise. */
  pausedReason: string | null
}

/** GET /admin/api/campaigns/:id/draft: a draft as written, to open it again in the composer, counted and rendered. */
export interface CampaignWritten extends CampaignDraft {
  subject: { en: string } & Partial<Record<Locale, string>>
  markdown: { en: string } & Partial<Record<Locale, string>>
  segment: Segment
}

/** POST /admin/api/campaigns with send: false (and PUT of a draft): the draft, counted and rendered for one recipient. */
export interface CampaignDraft {
  id: number
  recipients: number
  /** The English mail, as a recipient sees it. */
  html: string
  text: string
  /** Every language the campaign was written in, as its recipients see it. */
  previews: Partial<Record<Locale, { subject: string; html: string; text: string }>>
}
