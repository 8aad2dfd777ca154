// What the command line must know of the running server to show a campaign as the server will send
// it: the address its links start with and the store links. The server records them in the store
// when it starts listening (its address may be known only then), and `campaign create --dry-run`
// reads them there, so a shell without the server's environment previews the same mail.
import { VISITOR_PATH } from '../../contract/visitor.js'
import type { CampaignLinks } from './campaign.js'

/** The settings row the server writes at every start. */
export const PUBLIC_SETTINGS_KEY = 'server_public'

export interface PublicSettings {
  /** SITE_URL, else the address the server listens at. */
  siteUrl: string
  appStoreUrl: string | null
  /** When the server wrote them (ISO 8601). */
  recordedAt: string
}

/** The stored row, if it has the shape the server writes. */
export function readPublicSettings(value: unknown): PublicSettings | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { siteUrl, appStoreUrl, recordedAt } = value as Record<string, unknown>
  if (typeof siteUrl !== 'string' || typeof recordedAt !== 'string') return undefined
  if (appStoreUrl !== null && typeof appStoreUrl !== 'string') return undefined
  return { siteUrl, appStoreUrl, recordedAt }
}

/** The links a preview shows: the real page link is each recipient's own. */
export function previewLinks(settings: Pick<PublicSettings, 'siteUrl' | 'appStoreUrl'>): CampaignLinks {
  const page = `${settings.siteUrl}${VISITOR_PATH}/your-own-link`
  return { page, unsubscribe: `${page}/unsubscribe`, appStore: settings.appStoreUrl ?? settings.siteUrl }
}
