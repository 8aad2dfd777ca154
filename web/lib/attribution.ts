// Where a visit came from, sent with the sign-up (docs/protocol.md, the optional columns): the
// campaign parameters of the page's own URL, and the host of the referring site, never its full URL.
import { type AttributionColumn, MAX_ATTRIBUTION_LENGTH, readCampaign } from '../../contract/waitlist'

export type Attribution = Partial<Record<AttributionColumn, string>>

export function readAttribution(pageUrl: string, referrer: string): Attribution {
  const page = new URL(pageUrl)
  const attribution: Attribution = readCampaign(page.searchParams)
  const host = referringHost(referrer)
  if (host && host !== page.host) attribution.referrer = host.slice(0, MAX_ATTRIBUTION_LENGTH)
  return attribution
}

function referringHost(referrer: string): string | undefined {
  if (!referrer) return undefined
  try {
    const url = new URL(referrer)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : undefined
  } catch {
    return undefined // not a URL: nothing to attribute
  }
}
