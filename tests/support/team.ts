// Operators for tests: an invitation made in the store (as an owner's would be, without its mail)
// and accepted through the API without a passkey, which answers with the session's cookie.
import Database from 'better-sqlite3'
import pg from 'pg'
import type { BrowserContext, Page } from 'playwright-core'
import type { Locale } from '../../contract/locales'
import type { OperatorRole } from '../../contract/team'
import { TEAM_TIMES } from '../../contract/team'
import { localMails, recipients } from './mailbox'
import type { TestServer } from './server'
import { OUTCOME_WAIT_MS } from './waits'

export interface TestOperator {
  id: number
  email: string
  role: OperatorRole
  /** The Cookie header's value that carries this operator's session. */
  cookie: string
  /** The session id alone (the cookie's value). */
  sessionId: string
}

/** A link made in the store, as the first start or `operator invite` makes one: its token. */
export async function inviteToken(
  server: TestServer,
  email: string | null,
  role: OperatorRole,
  purpose: 'setup' | 'invite' = 'invite',
  locale: Locale | null = null,
): Promise<string> {
  const { token } = await server.app.store.team.addLink(
    {
      purpose,
      email,
      role,
      operator_id: null,
      locale,
      createdBy: null,
      expires_at: new Date(Date.now() + TEAM_TIMES.inviteLinkMs).toISOString(),
    },
    { mail: false, audit: null },
  )
  if (!token) throw new Error('a link without mail answers its token')
  return token
}

/** The session cookie in a Set-Cookie answer: its name=value. */
export function sessionCookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((line) => /^(__Host-)?kennect_session=[^;]+/.test(line))
  if (!cookie) throw new Error(`no session cookie in the answer (${response.status})`)
  return cookie.split(';')[0] ?? ''
}

/** An operator of that role, signed in: invited and accepted without a passkey. */
export async function joinTeam(server: TestServer, email: string, role: OperatorRole): Promise<TestOperator> {
  const token = await inviteToken(server, email, role)
  const response = await fetch(`${server.url}/admin/api/setup/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ name: email.split('@')[0] }),
  })
  if (response.status !== 201) throw new Error(`setup answered ${response.status}: ${await response.text()}`)
  const cookie = sessionCookieOf(response)
  const operator = (await response.json()) as { operator: { id: number } }
  return { id: operator.operator.id, email, role, cookie, sessionId: cookie.split('=')[1] ?? '' }
}

/**
 * The admin API as a bearer token calls it (ADMIN_TOKEN, or an API token): a body goes as JSON,
 * its method POST unless said. `server` is asked at each call (a suite's server starts later).
 */
export function asToken(server: () => Pick<TestServer, 'url'>, token: string) {
  return (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server().url}/admin/api${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
}

/** Calls the admin API as this operator would from the admin page (same origin, JSON on writes). */
export function asOperator(server: TestServer, operator: Pick<TestOperator, 'cookie'>) {
  return (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const write = (init.method ?? 'GET') !== 'GET'
    return fetch(`${server.url}/admin/api${path}`, {
      method: init.method ?? 'GET',
      headers: { cookie: operator.cookie, ...(write ? { 'content-type': 'application/json', origin: server.url } : {}), ...init.headers },
      ...(write ? { body: JSON.stringify(init.body ?? {}) } : {}),
    })
  }
}

/** A page with its own passkey store: Chromium's virtual authenticator (DevTools' WebAuthn domain). */
export async function withAuthenticator(context: BrowserContext): Promise<Page> {
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return page
}

/** Puts an operator's session into a browser context, as signing in there would. */
export async function signInContext(context: BrowserContext, server: TestServer, operator: TestOperator): Promise<void> {
  const url = new URL(server.url)
  await context.addCookies([
    { name: 'kennect_session', value: operator.sessionId, domain: url.hostname, path: '/admin', httpOnly: true, sameSite: 'Strict' },
  ])
}

/** An owner for a browser test: joined, and its session put into the context. */
export async function ownerIn(context: BrowserContext, server: TestServer, email = 'owner@kennect.example'): Promise<TestOperator> {
  const owner = (await server.app.store.team.operatorByEmail(email))
    ? await signInAgain(server, email)
    : await joinTeam(server, email, 'owner')
  await signInContext(context, server, owner)
  return owner
}

/**
 * A fresh session for an operator that exists: a sign-in link made in the store (as the mail
 * would carry it), pressed as its page's button does.
 */
export async function signInAgain(server: TestServer, email: string): Promise<TestOperator> {
  const operator = await server.app.store.team.operatorByEmail(email)
  if (!operator) throw new Error(`no operator ${email}`)
  const { token } = await server.app.store.team.addLink(
    {
      purpose: 'sign-in',
      email,
      role: null,
      operator_id: operator.id,
      locale: null,
      createdBy: null,
      expires_at: new Date(Date.now() + TEAM_TIMES.signInLinkMs).toISOString(),
    },
    { mail: false, audit: null },
  )
  const response = await fetch(`${server.url}/admin/sign-in/${token}`, {
    method: 'POST',
    headers: { origin: server.url },
    redirect: 'manual',
  })
  if (response.status !== 303) throw new Error(`sign-in link answered ${response.status}`)
  const cookie = sessionCookieOf(response)
  return { id: operator.id, email, role: operator.role, cookie, sessionId: cookie.split('=')[1] ?? '' }
}

/**
 * Runs one statement on the server's own database (SQLite file or PostgreSQL schema), as a clock
 * or an operator's tool would, and answers its rows (none for a change).
 */
export async function runSql(
  server: { config: Pick<TestServer['config'], 'DATABASE_URL' | 'SQLITE_PATH'> },
  sql: { sqlite: string; postgres: string },
  values: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  if (server.config.DATABASE_URL) {
    const client = new pg.Client({ connectionString: server.config.DATABASE_URL })
    await client.connect()
    try {
      return (await client.query(sql.postgres, values)).rows
    } finally {
      await client.end()
    }
  }
  const db = new Database(server.config.SQLITE_PATH)
  try {
    const statement = db.prepare(sql.sqlite)
    if (statement.reader) return statement.all(...values) as Record<string, unknown>[]
    statement.run(...values)
    return []
  } finally {
    db.close()
  }
}

/** The same SQL for both stores, with `?` placeholders made `$n` for PostgreSQL. */
export const sameSql = (sql: string) => ({
  sqlite: sql,
  postgres: sql.replace(
    /\?/g,
    (
      (n) => () =>
        `$${++n}`
    )(0),
  ),
})

/** Moves an operator's sessions into the past, as if they had signed in `minutes` ago (and been idle since `idleMinutes` ago). */
export async function ageSessions(server: TestServer, operatorId: number, minutes: number, idleMinutes = 0): Promise<void> {
  const at = new Date(Date.now() - minutes * 60_000).toISOString()
  const seen = new Date(Date.now() - idleMinutes * 60_000).toISOString()
  await runSql(server, sameSql('UPDATE operator_sessions SET created_at = ?, last_seen_at = ? WHERE operator_id = ?'), [
    at,
    seen,
    operatorId,
  ])
}

/**
 * The link in the newest mail to `email` whose path starts with `path` (an invitation's
 * /admin/setup, a sign-in's /admin/sign-in), read as a mail client would; `skip` leaves out links
 * already used.
 */
export async function teamLinkFor(
  mailDir: string,
  email: string,
  path: string,
  skip: ReadonlySet<string> = new Set(),
  timeoutMs = OUTCOME_WAIT_MS,
  /** The link is the path itself, with no token after it (a notice's link to a page). */
  bare = false,
): Promise<string> {
  const until = Date.now() + timeoutMs
  const pattern = new RegExp(`https?://[^\\s"<>]+${path.replace(/\//g, '\\/')}${bare ? '(?![/\\w])' : '/[A-Za-z0-9_-]{43}'}`, 'g')
  while (Date.now() < until) {
    for (const mail of (await localMails(mailDir)).reverse()) {
      if (!recipients(mail).includes(email.toLowerCase())) continue
      const link = (mail.text ?? '').match(pattern)?.find((found) => !skip.has(found))
      if (link) return link
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no mail to ${email} with a link to ${path}`)
}
