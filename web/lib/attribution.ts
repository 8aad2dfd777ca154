// Where a visit came from, sent with the sign-up (PROTOCOL.md's optional columns): the campaign
// parameters of the page's own URL, and the host of the referring site, never its full URL.

export type Attribution = Partial<Record<'utm_source' | 'utm_medium' | 'utm_campaign' | 'referrer', string>>

/** PROTOCOL.md: attribution values are at most 200 characters. */
export const MAX_ATTRIBUTION_LENGTH = 200

export function readAttribution(pageUrl: string, referrer: string): Attribution {
  const attribution: Attribution = {}
  const page = new URL(pageUrl)
  for (const key of ['utm_source', 'utm_medium', 'utm_campaign'] as const) {
    const value = page.searchParams.get(key)?.trim()
    if (value) attribution[key] = value.slice(0, MAX_ATTRIBUTION_LENGTH)
  }
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
