// Logs hold no secret, no e-mail address and no IP address, wherever in a request a visitor (or a
// scanner) put one: the path, encoded or not, or a query parameter's name. Values of parameters,
// headers and bodies are never logged at all (logging.ts, serializeRequest). A known route's path
// is logged as its pattern (`/admin/sign-in/[token]`): a parameter's value only when it is a number
// (an id), so a route added later with a secret in its path is covered by the rule, not by a list.
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

/** The characters of a token (base64url). */
const TOKEN_CHARS = 'A-Za-z0-9_-'
/**
 * A word that may be a secret (a token is 43 characters of base64url): a run of 20 or more
 * characters of that alphabet with a digit, an underscore or a capital in it, whatever stands
 * around it. A link pasted into a sentence arrives with its full stop or bracket (`<token>.`,
 * `<token>)`), or with an extension a mail client added (`<token>.html`): the word is hidden all
 * the same. Words joined by hyphens (no digit or capital), hashed asset names (the hash is short)
 * and ids stay.
 */
const SECRET_WORD = new RegExp(`(?<![${TOKEN_CHARS}])(?=[${TOKEN_CHARS}]*[0-9A-Z_])[${TOKEN_CHARS}]{20,}(?![${TOKEN_CHARS}])`, 'g')

/** The text with every token-shaped word replaced by `[secret]`. */
function redactSecrets(text: string): string {
  return text.replace(SECRET_WORD, '[secret]')
}

/** A path no route matched, as it may be logged: no page token or secret, no e-mail or IP address. */
export function redactPath(path: string): string {
  return redactSecrets(redactPersonal(path.replace(TOKEN_IN_PATH, `${VISITOR_PATH}/[token]`)))
}

/** A query parameter's name as it may be logged (its value never is). */
export function redactName(name: string): string {
  return redactSecrets(redactPersonal(name))
}

/**
 * A matched route's path as it may be logged: its pattern, each parameter by its name
 * (`/admin/setup/[token]`), or by its value when that is a number of up to 12 digits (an id).
 */
export function routePath(pattern: string, params: unknown): string {
  const values = (params ?? {}) as Record<string, unknown>
  return pattern.replace(/:([A-Za-z_]\w*)(?:\([^)]*\))?/g, (_match, name: string) => {
    const value = values[name]
    return typeof value === 'string' && /^\d{1,12}$/.test(value) ? value : `[${name}]`
  })
}
