// Where a visit came from, sent with the sign-up (docs/protocol.md, the optional columns): the
// campaign parameters of the page's own URL, the host of the referring site (never its full URL),
// and the inviter's code the link carried (docs/decisions/015-growth.md).
import { INVITE_PARAM, readInviteCode } from '../../contract/growth'
import type { LOCALE_COLUMN } from '../../contract/locales'
import { type AttributionColumn, MAX_ATTRIBUTION_LENGTH, readCampaign } from '../../contract/waitlist'

/** What travels with the address: where the visit came from, the inviter's code, the page's language. */
export type Attribution = Partial<Record<AttributionColumn | typeof INVITE_PARAM | typeof LOCALE_COLUMN, string>>

export function readAttribution(pageUrl: string, referrer: string): Attribution {
  const page = new URL(pageUrl)
  const attribution: Attribution = readCampaign(page.searchParams)
  // Only a well-formed code is sent; the server would ignore any other, and so may the page.
  const invite = readInviteCode(page.searchParams.get(INVITE_PARAM))
  if (invite) attribution.invite = invite
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
