// The visitor's own page (/me/<token>): what a sign-up may tell us about itself, and what the page
// shows. Types, constants and pure checks; this folder imports nothing but itself.
import type { Platform } from './platform.js'
import type { CountryCode } from './countries.js'
import type { BreedTarget } from './breed-meters.js'
import type { Locale } from './locales.js'
import type { PublicCountryMeter } from './growth.js'

/** Who the visitor is, as the page asks it ("I am a …"). */
export const ROLES = ['breeder', 'owner', 'club', 'enthusiast'] as const
export type Role = (typeof ROLES)[number]

export const MAX_BREEDS = 5
/** A breed's name: one of the recognised names suggested, or the visitor's own words. */
export const MAX_BREED_LENGTH = 60

/**
 * What a breeder brings of a breed, or that they look for a puppy of it: `both` counts on each side
 * of the breed's meter.
 */
export const SIDES = ['stud', 'dam', 'both', 'seeker'] as const
export type Side = (typeof SIDES)[number]

/** The kennel clubs offered (each country's own, the American one, and any other). */
export const KENNEL_CLUBS = ['KC', 'VDH', 'SCC', 'RSCE', 'ENCI', 'ZKwP', 'AKC', 'other'] as const
export type KennelClub = (typeof KENNEL_CLUBS)[number]
/** The club a country's breeders most likely belong to: offered first. */
export const COUNTRY_CLUB: Partial<Record<CountryCode, KennelClub>> = {
  GB: 'KC',
  DE: 'VDH',
  FR: 'SCC',
  ES: 'RSCE',
  IT: 'ENCI',
  PL: 'ZKwP',
  US: 'AKC',
}

/** Litters in the last twelve months: 0, 1, 2, or 3 meaning three or more. */
export const LITTER_CHOICES = [0, 1, 2, 3] as const
export type Litters = (typeof LITTER_CHOICES)[number]

/** Health tests a breeder may have done for a breed (the schemes breed clubs ask for). */
export const HEALTH_TESTS = ['hips', 'elbows', 'eyes', 'heart', 'patellas', 'spine', 'hearing', 'breathing', 'mri', 'dna'] as const
export type HealthTest = (typeof HEALTH_TESTS)[number]
/** Offered for a breed whose clubs' list is not known here. */
export const COMMON_HEALTH_TESTS: readonly HealthTest[] = ['hips', 'elbows', 'eyes', 'heart', 'dna']
/**
 * What the breed clubs of a few widely bred breeds ask for (the KC/BVA schemes and their DNA
 * panels; the FCI clubs ask much the same). Keyed by catalogue id.
 */
export const BREED_HEALTH_TESTS: Readonly<Record<string, readonly HealthTest[]>> = {
  'labrador-retriever': ['hips', 'elbows', 'eyes', 'dna'],
  'golden-retriever': ['hips', 'elbows', 'eyes', 'heart', 'dna'],
  'german-shepherd-dog': ['hips', 'elbows', 'dna'],
  'french-bulldog': ['breathing', 'spine', 'eyes', 'dna'],
  bulldog: ['breathing', 'heart', 'eyes', 'dna'],
  pug: ['breathing', 'spine', 'eyes', 'dna'],
  'cavalier-king-charles-spaniel': ['heart', 'mri', 'eyes', 'dna'],
  'border-collie': ['hips', 'eyes', 'hearing', 'dna'],
  'australian-shepherd': ['hips', 'elbows', 'eyes', 'dna'],
  dalmatian: ['hearing', 'hips', 'dna'],
  'bernese-mountain-dog': ['hips', 'elbows', 'heart', 'dna'],
  rottweiler: ['hips', 'elbows', 'heart', 'eyes'],
  boxer: ['heart', 'hips', 'spine', 'dna'],
  dachshund: ['spine', 'eyes', 'dna'],
  poodle: ['eyes', 'hips', 'patellas', 'dna'],
  'english-cocker-spaniel': ['eyes', 'hips', 'dna'],
  chihuahua: ['patellas', 'heart', 'eyes'],
  'yorkshire-terrier': ['patellas', 'eyes', 'dna'],
}
/** The tests to offer for a breed (its clubs', else the common ones). */
export const healthTestsFor = (breed: string | null): readonly HealthTest[] =>
  (breed ? BREED_HEALTH_TESTS[breed] : undefined) ?? COMMON_HEALTH_TESTS
/** Other tests, in the breeder's words. */
export const MAX_OTHER_TESTS_LENGTH = 120

/** One breed of a profile: the name as typed, the catalogue's id when it knows the name. */
export interface ProfileBreed {
  name: string
  /** The catalogue's id (contract/breeds.json), or an operator's mapping; null while unknown. */
  breed: string | null
  side: Side | null
  tests: HealthTest[]
  otherTests: string | null
}

/** All optional: what the launch team plans with (the requirements name no field; the launch plan does). */
export interface Profile {
  role: Role | null
  breeds: ProfileBreed[]
  country: CountryCode | null
  club: KennelClub | null
  litters: Litters | null
}

/** A profile as the form sends it, before the server looks its names up (`breed` not yet known). */
export type ProfileForm = Omit<Profile, 'breeds'> & { breeds: Omit<ProfileBreed, 'breed'>[] }

/** Where the page's forms post, under /me/<token>. */
export const VISITOR_ACTIONS = ['confirm', 'profile', 'phone', 'language', 'unsubscribe', 'resubscribe', 'delete'] as const
export type VisitorAction = (typeof VISITOR_ACTIONS)[number]

/** The line the page shows after an action (it redirects to `?done=<notice>`). */
export const VISITOR_NOTICES = ['confirmed', 'saved', 'phone', 'language', 'unsubscribed', 'resubscribed'] as const
export type VisitorNotice = (typeof VISITOR_NOTICES)[number]

/** Everything the page shows; the server fills it, the page's render turns it into HTML. */
export interface VisitorView {
  /** `/me/<token>`: the page's own path, the forms' base. */
  base: string
  /** The sign-up's language: the page speaks it, and its switcher changes it. */
  locale: Locale
  email: string
  /** ISO 8601, UTC. */
  joinedAt: string
  confirmed: boolean
  subscribed: boolean
  profile: Profile
  notice: VisitorNotice | null
  /** `page`: the page; `confirm-delete`: the second step of deleting. */
  step: 'page' | 'confirm-delete'
  /** The invite link and what it has brought (counts only); null until the address is confirmed. */
  invite: { link: string; joined: number; confirmed: number } | null
  /** Their country's launch meter as the public sees it; null while they have not said where they live. */
  meter: PublicCountryMeter | null
  /** The meter of each of their named breeds in their country (empty until both are said). */
  breedMeters: VisitorBreedMeter[]
  /** Into the app: the phone they use, their app link once a campaign made it, and when the app took the profile. */
  app: VisitorApp
}

/** The visitor's page's card about the app (contract/app.ts). */
export interface VisitorApp {
  /** As their join's browser named it, or as they said here; null for a sign-up from before it was recorded. */
  platform: Platform | null
  /** SITE_URL/app/<code>, once the first campaign mail that could hold it was made; null before. */
  link: string | null
  /** ISO 8601, UTC: when the app took the profile; null until then. */
  claimedAt: string | null
}

/**
 * One breed's meter in the visitor's country, as the public sees it (contract/public-figures.ts):
 * each count the lower bound of its band once its secret offset is taken off ("10+"), or null
 * ("too few to show yet"), so no one is pointed at.
 */
export interface VisitorBreedMeter {
  breed: string
  /** The breed's name in the page's language. */
  name: string
  studs: number | null
  dams: number | null
  target: BreedTarget
  ready: boolean
}

/** The page's answers that have no sign-up behind them. */
/** Why the visitor's page is not shown: no such link, deleted, or the store cannot answer now (503: try again). */
export type VisitorGone = 'not-found' | 'deleted' | 'unavailable'

/**
 * What an app link answers a browser when it opens no store page: unknown (or deleted), already in
 * the app, or not looked up because its address asked for too many codes that open nothing (429).
 */
export type AppLinkGone = 'not-found' | 'claimed' | 'busy'

/** The one form field of RFC 8058's one-click unsubscribe. */
export const ONE_CLICK_FIELD = 'List-Unsubscribe'
export const ONE_CLICK_VALUE = 'One-Click'

/** Where the visitor's pages live: `/me/<token>`. */
export const VISITOR_PATH = '/me'

/** A page the render module made: the document's title and its body's HTML. */
export interface RenderedPage {
  title: string
  html: string
}

/**
 * The build's render module for the visitor's pages (dist/visitor/render.js, made from web/): the
 * server loads it at start, as it loads the built HTML, and never imports web/ itself.
 */
export interface VisitorRender {
  /** The product's name and support address, as the page was built with them. */
  site: { productName: string; supportEmail: string }
  page(view: VisitorView, error?: 'invalid-profile'): RenderedPage
  gone(why: VisitorGone, locale: Locale): RenderedPage
  /** An app link opened in a browser (/app/<code>): the store for its phone. */
  app(view: AppPageView): RenderedPage
  /** An app link that leads nowhere now, in the sign-up's language (English for an unknown code). */
  appGone(why: AppLinkGone, locale: Locale): RenderedPage
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
  /** The code itself, for the app to ask for once after installing: iOS keeps no install referrer, and Android's can be lost. */
  code: string
}
