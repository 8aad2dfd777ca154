// The only module that reads the environment. Every variable is validated at start-up, and a bad
// start names every wrong variable in one message before anything is opened.
import { z } from 'zod'
import { DEFAULT_IMPORT_MAX_BYTES } from '../contract/imports.js'
import { dkimKeyProblem, readPem } from './mail/dkim.js'
import { sendgridKey } from './mail/sendgrid.js'
import { DEFAULT_SNS_CERT_URL_PATTERN } from './mail/sns.js'

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()))

const limit = z.coerce.number().int().min(0)

/**
 * A store's address, parsed whole: the mails, the /app/ page and the Play referrer build on it with
 * `new URL`, so one that only starts well (a port of 99999) would fail each Android mail and page
 * (issue 49). https with a host and a valid port, no user or password, and nothing a mail's link or
 * an attribute would have to escape (white space, quotes, angle brackets, backslashes).
 */
const storeUrl = (message: string) => optionalText.refine((url) => url === undefined || isStoreUrl(url), { message })

function isStoreUrl(text: string): boolean {
  if (!/^https:\/\/[^/?#\s]/.test(text) || /[\s"'`<>\\]/.test(text) || !URL.canParse(text)) return false
  const url = new URL(text)
  return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === ''
}

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** Set: PostgreSQL. Unset: SQLite at SQLITE_PATH. */
  DATABASE_URL: optionalText.refine((url) => url === undefined || /^postgres(ql)?:\/\//.test(url), {
    message: 'expected a postgres:// or postgresql:// URL',
  }),
  SQLITE_PATH: z.string().trim().min(1).default('data/waitlist.db'),
  WAITLIST_ANON_KEY: optionalText,
  ADMIN_TOKEN: optionalText.refine((token) => token === undefined || token.length >= 16, {
    message: 'expected at least 16 characters',
  }),
  RATE_LIMIT_PER_MINUTE: limit.default(20),
  RATE_LIMIT_PER_HOUR: limit.default(200),
  /** Proxy addresses or CIDRs ("loopback", "10.0.0.0/8"), a hop count ("1"), or "true" (trust any). */
  TRUST_PROXY: optionalText.transform((value): boolean | number | string | undefined => {
    if (value === undefined || value === 'false') return undefined
    if (value === 'true') return true
    return /^\d+$/.test(value) ? Number(value) : value
  }),
  CORS_ORIGINS: z
    .string()
    .default('*')
    .transform((list) =>
      list
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .refine((origins) => origins.length > 0, { message: 'expected "*" or a comma-separated list of origins' })
    .refine((origins) => origins.every((o) => o === '*' || /^https?:\/\/[^/]+$/.test(o)), {
      message: 'expected "*" or origins such as https://kennect.app (scheme and host, no path)',
    }),
  /** Signs the no-script form's timestamp; unset: a random key per process (tokens die with it). */
  FORM_SECRET: optionalText.refine((secret) => secret === undefined || secret.length >= 32, {
    message: 'expected at least 32 characters (e.g. `openssl rand -base64 32`)',
  }),
  /** A no-script post sooner than this after the page was sent is a bot's: success shown, nothing stored. */
  FORM_MIN_SECONDS: z.coerce.number().min(0).max(60).default(2),
  /** 1: webhook endpoints may be http:// and private addresses (local development and tests only). */
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['0', '1'])
    .default('0')
    .transform((flag) => flag === '1'),
  /** A factor on the webhook retry schedule (drills and tests: 0.01 makes 5 minutes 3 seconds). */
  WEBHOOK_RETRY_SCALE: z.coerce.number().gt(0).max(1).default(1),
  /** 1: addresses at disposable-mail domains are answered as invalid. */
  BLOCK_DISPOSABLE_EMAIL: z
    .enum(['0', '1'])
    .default('0')
    .transform((flag) => flag === '1'),
  /**
   * The public address, for links in mails (the same variable the build reads). Unset: the
   * address the server listens on, right for one machine.
   */
  SITE_URL: optionalText
    // Letters, digits and . - _ ~ / only (and a port, an IPv6 host): the server writes it into
    // pages, XML and JSON as it is (server/http/site-address.ts), so nothing in it may need escaping.
    .refine((url) => url === undefined || /^https?:\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?(\/[A-Za-z0-9._~/-]*)?$/.test(url), {
      message: "expected the page's http(s) address, such as https://kennect.app (letters, digits and . - _ ~ / in its path)",
    })
    .transform((url) => url?.replace(/\/+$/, '')),
  /** Set: mail leaves through this SMTP server (smtp://user:pass@host:587, smtps://…). Unset: files in MAIL_DIR. */
  SMTP_URL: optionalText.refine((url) => url === undefined || /^smtps?:\/\/[^/\s]+/.test(url), {
    message: 'expected smtp://user:password@host:587 or smtps://user:password@host:465',
  }),
  /** The sender of every mail. */
  MAIL_FROM: z
    .string()
    .trim()
    .default('Kennect <hello@kennect.app>')
    .refine((from) => /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(from), {
      message: 'expected an address, optionally with a name: Kennect <hello@kennect.app>',
    }),
  /** VERP: the return path of every mail, `{id}` standing for the mail's number (bounces+{id}@kennect.app), so a bounce names its mail. */
  MAIL_RETURN_PATH: optionalText.refine(
    (path) => path === undefined || /^[^\s@<>{}]*\{id\}[^\s@<>{}]*@[^\s@<>{}]+\.[^\s@<>{}]+$/.test(path),
    {
      message: 'expected an address with {id} in its local part, such as bounces+{id}@kennect.app',
    },
  ),
  /** Postmark's bounce and spam-complaint webhooks: the basic-auth `user:password` put in their URL. */
  POSTMARK_WEBHOOK_AUTH: optionalText.refine((auth) => auth === undefined || /^[^:\s]+:\S{12,}$/.test(auth), {
    message: 'expected user:password, the password of 12 characters or more',
  }),
  /** Mailgun's webhooks: the HTTP webhook signing key Mailgun shows. */
  MAILGUN_WEBHOOK_SIGNING_KEY: optionalText.refine((key) => key === undefined || key.length >= 16, {
    message: 'expected the signing key Mailgun shows (16 characters or more)',
  }),
  /** SendGrid's signed event webhook: the verification key SendGrid shows (base64), or a PEM. */
  SENDGRID_WEBHOOK_PUBLIC_KEY: optionalText.refine((key) => key === undefined || sendgridKey(key) !== null, {
    message: "expected the signed event webhook's verification key SendGrid shows (MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE…)",
  }),
  /** Amazon SES through SNS: the one topic whose bounce and complaint notifications are taken. */
  SES_SNS_TOPIC_ARN: optionalText.refine(
    (arn) => arn === undefined || /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/.test(arn),
    { message: 'expected a topic ARN such as arn:aws:sns:eu-west-1:123456789012:kennect-ses' },
  ),
  /** The addresses SNS signing certificates may be fetched from: a regular expression over the whole URL. */
  SNS_CERT_URL_PATTERN: z
    .string()
    .trim()
    .default(DEFAULT_SNS_CERT_URL_PATTERN)
    .refine(
      (pattern) => {
        try {
          new RegExp(pattern)
          return pattern.startsWith('https://')
        } catch {
          return false
        }
      },
      { message: 'expected a regular expression over https:// addresses, such as https://sns\\.[a-z0-9-]+\\.amazonaws\\.com/.*\\.pem' },
    ),
  /**
   * DKIM: the private key (a PEM, or the path of a file holding one) every mail is signed with, for
   * MAIL_FROM's domain: RSA of 2048 bits or more, or Ed25519. Any other is refused here, not found
   * out by a receiver: it would send mail unsigned or with a signature no one can check.
   */
  DKIM_PRIVATE_KEY: optionalText
    .transform((value) => (value === undefined ? undefined : readPem(value)))
    .superRefine((pem, context) => {
      const problem = pem === undefined ? undefined : dkimKeyProblem(pem)
      if (problem) context.addIssue({ code: 'custom', message: problem })
    }),
  /** DKIM: the selector its public key is published under (`<selector>._domainkey.<domain>`). */
  DKIM_SELECTOR: optionalText.refine(
    (selector) => selector === undefined || /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/.test(selector),
    {
      message: 'expected a DNS label such as kennect1',
    },
  ),
  /** Without SMTP_URL, each mail is written here as an .eml file (the admin page lists them). */
  MAIL_DIR: z.string().trim().min(1).default('data/mail'),
  /**
   * Where campaigns' {{app_store_url}}, an iPhone's {{store_url}} and the app link's page lead: the
   * app's App Store page (its pre-order page before launch is the same address).
   */
  APP_STORE_URL: storeUrl('expected the https:// address of the app in the App Store, such as https://apps.apple.com/app/id6400000000'),
  /**
   * Where {{store_url}} and the app link's page send an Android phone: the app's Google Play listing
   * (its pre-registration page before launch is the same address); the code rides along as install referrer.
   */
  PLAY_STORE_URL: storeUrl(
    'expected the https:// address of the app in Google Play, such as https://play.google.com/store/apps/details?id=app.kennect',
  ),
  /** The iOS app that may open /app/ links: `<team id>.<bundle id>` (apple-app-site-association). */
  IOS_APP_ID: optionalText.refine((id) => id === undefined || /^[A-Z0-9]{10}\.[A-Za-z0-9][A-Za-z0-9.-]*$/.test(id), {
    message: 'expected the team id and the bundle id, such as ABCDE12345.app.kennect.ios',
  }),
  /** The Android app that may open /app/ links: its package name (assetlinks.json). */
  ANDROID_PACKAGE: optionalText.refine((name) => name === undefined || /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/.test(name), {
    message: 'expected a package name such as app.kennect.android',
  }),
  /** Its signing certificates' SHA-256 fingerprints, comma-separated, colon hex in either case (served upper-case). */
  ANDROID_CERT_SHA256: optionalText
    .transform((list) =>
      list === undefined
        ? undefined
        : list
            .split(',')
            .map((fingerprint) => fingerprint.trim())
            .filter(Boolean),
    )
    .refine((list) => list === undefined || (list.length > 0 && list.every((f) => /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){31}$/.test(f))), {
      message: 'expected SHA-256 fingerprints as 32 colon-separated hex pairs (14:6D:E9:…), comma-separated',
    })
    .transform((list) => (list === undefined ? undefined : [...new Set(list.map((f) => f.toUpperCase()))])),
  /** 1: the landing page's views are counted for the funnel as they are sent (no cookie; docs/decisions/015-growth.md). */
  COUNT_PAGE_VIEWS: z
    .enum(['0', '1'])
    .default('1')
    .transform((flag) => flag === '1'),
  /** A campaign pauses itself when hard bounces over its last 500 deliveries are above this fraction. */
  CAMPAIGN_PAUSE_BOUNCE_RATE: z.coerce.number().min(0).max(1).default(0.05),
  /** …or complaints above this one. */
  CAMPAIGN_PAUSE_COMPLAINT_RATE: z.coerce.number().min(0).max(1).default(0.001),
  /** The outbox's pace, for the whole deployment; 0 sends as fast as the server takes them. */
  MAIL_RATE_PER_SECOND: z.coerce.number().min(0).max(10_000).default(10),
  /** The largest CSV an import takes, in the file's own bytes (docs/import.md): 413 above it, before reading a request that declares more. */
  IMPORT_MAX_BYTES: z.coerce.number().int().min(1).default(DEFAULT_IMPORT_MAX_BYTES),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})

export type Config = z.infer<typeof schema>

/** Every variable the server reads (the README's table and .env.example list the same). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape)

/**
 * Variables whose value is a secret (a password inside a URL, a token, a key): a bad one is named
 * with its problem, never printed, since start-up output ends up in logs and support tickets.
 */
const SECRETS: ReadonlySet<string> = new Set([
  'DATABASE_URL',
  'WAITLIST_ANON_KEY',
  'ADMIN_TOKEN',
  'FORM_SECRET',
  'SMTP_URL',
  'DKIM_PRIVATE_KEY',
  'POSTMARK_WEBHOOK_AUTH',
  'MAILGUN_WEBHOOK_SIGNING_KEY',
])
export type Env = Record<string, string | undefined>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

export function loadConfig(env: Env = process.env): Config {
  const input: Env = {}
  for (const key of Object.keys(schema.shape)) {
    const value = env[key]
    // An empty variable (`PORT=`) means "use the default", as it does in most shells' .env files.
    if (value !== undefined && value !== '') input[key] = value
  }
  const result = schema.safeParse(input)
  // DKIM needs both its key and its selector: one alone would sign nothing and say nothing.
  if (result.success && Boolean(result.data.DKIM_PRIVATE_KEY) !== Boolean(result.data.DKIM_SELECTOR))
    throw new ConfigError(
      `Invalid configuration:\n  ${result.data.DKIM_PRIVATE_KEY ? 'DKIM_SELECTOR' : 'DKIM_PRIVATE_KEY'}: required with ${result.data.DKIM_PRIVATE_KEY ? 'DKIM_PRIVATE_KEY' : 'DKIM_SELECTOR'}`,
    )
  // An Android app is named by its package and its certificates together: one alone opens nothing.
  if (result.success && (result.data.ANDROID_PACKAGE === undefined) !== (result.data.ANDROID_CERT_SHA256 === undefined))
    throw new ConfigError(
      `Invalid configuration:\n  ${result.data.ANDROID_PACKAGE ? "ANDROID_CERT_SHA256: required with ANDROID_PACKAGE (its signing certificates' SHA-256 fingerprints)" : 'ANDROID_PACKAGE: required with ANDROID_CERT_SHA256'}`,
    )
  if (result.success) return result.data
  const lines = result.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? 'config')
    const shown = SECRETS.has(key) ? ' (value not shown: it holds a secret)' : `, got ${JSON.stringify(input[key] ?? null)}`
    return `  ${key}: ${issue.message}${shown}`
  })
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
}
