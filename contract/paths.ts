// Where the two sides meet over HTTP. Constants only; this folder imports nothing.

/** The PostgREST surface, as a Supabase project serves it. */
export const REST_PREFIX = '/rest/v1'
/** The no-script form's route (docs/decisions/003-no-script-form.md). */
export const JOIN_PATH = '/join'
/** The public read-only API: each country's launch meter (contract/growth.ts). */
export const PUBLIC_API_PREFIX = '/api'
export const LAUNCH_PATH = `${PUBLIC_API_PREFIX}/launch`
/** The operators' page (an app with a route per view) and its API. */
export const ADMIN_PAGE_PATH = '/admin'
export const ADMIN_API_PREFIX = '/admin/api'
/** An operator's single-use links: `<path>/<token>` (docs/decisions/017-the-team.md). */
export const TEAM_PATHS = { setup: '/admin/setup', signIn: '/admin/sign-in' } as const

/**
 * The value the prerendered form carries in its hidden `token` field; the server writes a signed
 * timestamp in its place into every page it sends.
 */
export const FORM_TOKEN_SLOT = '@form-token@'

/**
 * Where the prerendered hero holds its note: the server writes, into every page it sends, how many
 * confirmed sign-ups wait (from WAITING_SHOWN_FROM on), or the note the page was built with.
 */
export const WAITING_SLOT = '@waiting@'

/**
 * Where the prerendered page names the stores: the hero's line above its headline, the Google Play
 * badge beside the App Store's, and the waitlist's sub-text. The server writes in the words for the
 * stores it has (the App Store alone, or Google Play too with PLAY_STORE_URL), so one build serves
 * either.
 */
export const STORE_SLOTS = {
  eyebrow: '@stores-eyebrow@',
  playBadge: '@stores-play-badge@',
  subtext: '@stores-subtext@',
  /** The JSON-LD's `operatingSystem`: APP_SYSTEMS's. */
  systems: '@stores-systems@',
} as const

/** The app's systems, as the page's JSON-LD names them: the App Store's alone, or Google Play's too. */
export const APP_SYSTEMS = { ios: 'iOS', both: 'iOS, Android' } as const
