// Whom a limit counts: one key per client however its address is written. An IPv6 client gets a
// /64 from its provider and can pick any address inside it, so it is counted per /64; an
// IPv4-mapped IPv6 address (::ffff:203.0.113.5) is the IPv4 client it maps.
import ipaddr from 'ipaddr.js'

export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip // not an address (a test's fake socket): counted as it is
  const address = ipaddr.process(ip) // unwraps IPv4-mapped IPv6
  if (address.kind() === 'ipv4') return address.toString()
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16))
  return `${parts.join(':')}::/64`
}
