// Where a webhook may go (docs/decisions/018-webhooks.md): https to public addresses only, checked
// when an endpoint is saved and again at every connection, after DNS. The connection is made to the
// address that was checked (a lookup of our own hands it to the socket), so a name cannot resolve
// to a public address for the check and to a private one for the connection.
import ipaddr from 'ipaddr.js'
import type { LookupAddress } from 'node:dns'
import { lookup } from 'node:dns/promises'
import type { LookupFunction } from 'node:net'
import { WEBHOOK_URL_MAX } from '../../contract/webhooks.js'

export class AddressRefused extends Error {
  override name = 'AddressRefused'
}

/** Whether an IP address is a public unicast one (not loopback, private, link-local, CGNAT, unique-local, multicast, reserved…). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  // ::ffff:10.0.0.1 is 10.0.0.1.
  const parsed = ipaddr.process(address)
  return parsed.range() === 'unicast'
}

/** Said when an endpoint is refused at saving, where a developer's local receiver meets it (never set in production). */
export const DEVELOPMENT_HINT = ' (for a local receiver while developing, start the server with WEBHOOK_ALLOW_PRIVATE=1)'

/**
 * The URL's problem, named by field, or null when it may be saved (before DNS). `hint` follows the
 * refusals a local receiver meets (saving passes DEVELOPMENT_HINT; a delivery's log does not).
 */
export function urlProblem(text: string, allowPrivate: boolean, hint = ''): string | null {
  if (text.length > WEBHOOK_URL_MAX) return `url: at most ${WEBHOOK_URL_MAX} characters`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'url: not a URL'
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return `url: must start with https://${hint}`
  if (url.username || url.password) return 'url: must not carry a user name or password'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!host) return 'url: has no host'
  if (ipaddr.isValid(host) && !allowPrivate && !isPublicAddress(host)) return `url: not a public address${hint}`
  return null
}

/** The host's addresses, every one of them public (unless allowed), or AddressRefused. */
export async function publicAddresses(hostname: string, allowPrivate: boolean): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '')
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
    : await lookup(host, { all: true, verbatim: true })
  if (addresses.length === 0) throw new AddressRefused(`${host} has no address`)
  if (!allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address))
    if (refused) throw new AddressRefused(`${host} resolves to ${refused.address}, not a public address`)
  }
  return addresses
}

/** A lookup for the socket that answers only checked addresses (the DNS answer and the check are one). */
export function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    publicAddresses(hostname, allowPrivate).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses
        if (wanted.length === 0) return callback(new AddressRefused(`${hostname} has no address of that family`), '', 4)
        if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, wanted)
        const [first] = wanted
        callback(null, first?.address ?? '', first?.family ?? 4)
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 4),
    )
  }
}
