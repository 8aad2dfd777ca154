// Where an app link and a store link lead (docs/decisions/022-into-the-app.md): written once, read
// by the campaign mails, the /app/ page and the command line's preview.
import { APP_PATH, PLAY_REFERRER_CODE, type Platform } from '../../contract/app.js'

/** The stores' addresses (APP_STORE_URL, PLAY_STORE_URL): a pre-order or pre-registration page is the ordinary listing's. */
export interface StoreUrls {
  appStoreUrl: string | null
  playStoreUrl: string | null
}

/** The stores' addresses as the settings give them: one reading for the mails, the /app/ page and the composer. */
export const storeUrlsOf = (config: { APP_STORE_URL?: string; PLAY_STORE_URL?: string }): StoreUrls => ({
  appStoreUrl: config.APP_STORE_URL ?? null,
  playStoreUrl: config.PLAY_STORE_URL ?? null,
})

/** SITE_URL/app/<code>: the app opens it where it is installed; a browser gets the /app/ page. */
export const appLinkOf = (siteUrl: string, code: string): string => `${siteUrl}${APP_PATH}/${code}`

/**
 * The Play listing with the code as its install referrer (`&referrer=code%3D<code>`): Google Play
 * hands it to the app after the install, so the app can claim without the link being opened again.
 */
export function playUrlWithCode(playStoreUrl: string, code: string): string {
  const url = new URL(playStoreUrl)
  url.searchParams.set('referrer', `${PLAY_REFERRER_CODE}=${code}`)
  return url.toString()
}

/**
 * {{store_url}} for a recipient: the App Store for an iPhone, Google Play (with the code) for
 * Android, and for a phone not known (or a store not set) their app link, whose page offers both.
 */
export function storeUrlFor(stores: StoreUrls, platform: Platform | null, appLink: string, code: string): string {
  if (platform === 'ios' && stores.appStoreUrl !== null) return stores.appStoreUrl
  if (platform === 'android' && stores.playStoreUrl !== null) return playUrlWithCode(stores.playStoreUrl, code)
  return appLink
}
