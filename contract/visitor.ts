// The visitor's own page (/me/<token>): what a sign-up may tell us about itself, and what the page
// shows. Types, constants and pure checks; this folder imports nothing but itself.
import type { CountryCode } from './countries.js'
import type { CountryMeter } from './growth.js'
import type { Locale } from './locales.js'

/** Who the visitor is, as the page asks it ("I am a …"). */
export const ROLES = ['breeder', 'owner', 'club', 'enthusiast'] as const
export type Role = (typeof ROLES)[number]

export const MAX_BREEDS = 5
/** A breed's name: one of the recognised names suggested, or the visitor's own words. */
export const MAX_BREED_LENGTH = 60

/** All optional: what the launch team plans with (the requirements name no field; the launch plan does). */
export interface Profile {
  role: Role | null
  breeds: string[]
  country: CountryCode | null
}

/** Where the page's forms post, under /me/<token>. */
export const VISITOR_ACTIONS = ['confirm', 'profile', 'language', 'unsubscribe', 'resubscribe', 'delete'] as const
export type VisitorAction = (typeof VISITOR_ACTIONS)[number]

/** The line the page shows after an action (it redirects to `?done=<notice>`). */
export const VISITOR_NOTICES = ['confirmed', 'saved', 'language', 'unsubscribed', 'resubscribed'] as const
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
  /** Their country's launch meter; null while they have not said where they live. */
  meter: CountryMeter | null
}

/** The page's answers that have no sign-up behind them. */
export type VisitorGone = 'not-found' | 'deleted'

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
}
