// What the command line must know of the running server to show a campaign as the server will send
// it: the address its links start with and the store links. The server records them in the store
// when it starts listening (its address may be known only then), and `campaign create --dry-run`
// reads them there, so a shell without the server's environment previews the same mail.
import { VISITOR_PATH } from '../../contract/visitor.js'
import { appLinkOf, type StoreUrls } from '../handoff/links.js'
import type { CampaignLinks } from './campaign.js'

/** The settings row the server writes at every start. */
export const PUBLIC_SETTINGS_KEY = 'server_public'

export interface PublicSettings extends StoreUrls {
  /** SITE_URL, else the address the server listens at. */
  siteUrl: string
  /** When the server wrote them (ISO 8601). */
  recordedAt: string
}

/** The stored row, if it has the shape the server writes. */
export function readPublicSettings(value: unknown): PublicSettings | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { siteUrl, appStoreUrl, playStoreUrl = null, recordedAt } = value as Record<string, unknown>
  if (typeof siteUrl !== 'string' || typeof recordedAt !== 'string') return undefined
  if (appStoreUrl !== null && typeof appStoreUrl !== 'string') return undefined
  // A row a server from before PLAY_STORE_URL wrote has none.
  if (playStoreUrl !== null && typeof playStoreUrl !== 'string') return undefined
  return { siteUrl, appStoreUrl, playStoreUrl, recordedAt }
}

/**
 * The links a preview shows: the real page and app links are each recipient's own; {{store_url}}
 * shows what a recipient whose phone is not known gets, their app link (whose page offers both stores).
 */
export function previewLinks(settings: Pick<PublicSettings, 'siteUrl' | 'appStoreUrl' | 'playStoreUrl'>): CampaignLinks {
  const page = `${settings.siteUrl}${VISITOR_PATH}/your-own-link`
  const appLink = appLinkOf(settings.siteUrl, 'your-own-app-link')
  return { page, unsubscribe: `${page}/unsubscribe`, appStore: settings.appStoreUrl ?? settings.siteUrl, appLink, storeUrl: appLink }
}
