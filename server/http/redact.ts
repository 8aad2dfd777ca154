// Logs hold no e-mail address and no IP address, wherever in a request a visitor (or a scanner)
// put one: the path, encoded or not, or a query parameter's name. Values of parameters are never
// logged at all (server/app.ts, serializeRequest).
import { isIPv6 } from 'node:net'
import { VISITOR_PATH } from '../../contract/visitor.js'

const EMAIL = /[^\s/?#&=@[\]]+@[^\s/?#&=@[\]]+/g
const IPV4 = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])/g
/** Anything that could be an IPv6 address (two colons or more); isIPv6 decides. */
const IPV6_CANDIDATE = /[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*(?:%[\w.]+)?/gi

function decode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text // malformed escapes: redact the text as sent
  }
}

/** The text with every e-mail address and IP address replaced by `[email]` or `[ip]`. */
export function redactPersonal(text: string): string {
  return decode(text)
    .replace(EMAIL, '[email]')
    .replace(IPV6_CANDIDATE, (candidate) => (isIPv6(candidate.replace(/%.*$/, '')) ? '[ip]' : candidate))
    .replace(IPV4, '[ip]')
}

/** A visitor's page token is the key to their data: `/me/<token>/…` is logged as `/me/[token]/…`. */
const TOKEN_IN_PATH = new RegExp(`^${VISITOR_PATH}/(?!deleted(?:/|$))[^/]+`)

/** A request's path as it may be logged: no page token, no e-mail or IP address. */
export function redactPath(path: string): string {
  return redactPersonal(path.replace(TOKEN_IN_PATH, `${VISITOR_PATH}/[token]`))
}
