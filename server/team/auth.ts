// Who is calling the admin API, and whether they may (docs/decisions/017-the-team.md). A request
// carries an operator's session cookie, an API token, or ADMIN_TOKEN (the owner's break-glass
// token for scripts); every route names the permission it needs, and the plugin refuses to
// register one that does not. Failed attempts are counted per client and per operator.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { randomBytes } from 'node:crypto'
import { DEFAULT_LOCALE, type Locale } from '../../contract/locales.js'
import { type AuditAction, can, type Permission, RECENT_SIGN_IN_REQUIRED, TEAM_TIMES, type TokenRole } from '../../contract/team.js'
import { HttpError, tooMany } from '../http/errors.js'
import { hashToken, sameSecret } from '../secrets.js'
import type { AuditEntry, OperatorRecord } from '../store/types.js'
import { clientKey } from '../waitlist/client-key.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the route needs: a permission of the caller's role; `self`, a signed-in operator acting
     * on their own account; or `public` (the ways to sign in).
     */
    permission?: Permission | 'self' | 'public'
    /** Needs a sign-in within TEAM_TIMES.recentSignInMs when the caller is a session. */
    recent?: boolean
    /**
     * A body besides JSON that a session's write may send here: an upload from the admin page (a
     * file, `multipart/form-data`; its first bytes, `text/csv`). The Origin check still holds.
     */
    accepts?: string
  }
  interface FastifyRequest {
    /** Who made the request, once the admin API's hook has looked (null: nobody signed in). */
    caller: Caller | null
  }
}

/** A route of the admin API and what it needs. */
export interface AdminApiRoute {
  method: string
  url: string
  permission: Permission | 'self' | 'public'
  recent: boolean
}

export interface Caller {
  kind: 'session' | 'token' | 'admin-token'
  /** The signed-in operator (sessions only). */
  operator: OperatorRecord | null
  role: TokenRole
  /** The API token's id (tokens only). */
  tokenId: number | null
  /** How the audit log names the caller: the operator's e-mail, `token <name>`, ADMIN_TOKEN. */
  label: string
  actorId: number | null
  /** When the session signed in (sessions only). */
  signedInAt: string | null
  /** The session id's hash (sessions only). */
  sessionHash: string | null
}

/** Ten failures per client (or per operator) per quarter of an hour; then it is locked out. */
export const FAILURES_ALLOWED = 10
export const FAILURE_WINDOW_MS = 15 * 60_000

export const lockedOut = (resetMs: number): HttpError => tooMany('too_many_attempts', 'Too many attempts', resetMs)

/** The counters' keys of a client's and an operator's failures. */
export const failureKeys = {
  client: (request: FastifyRequest) => `team:fail:client:${clientKey(request.ip)}`,
  operator: (id: number) => `team:fail:operator:${id}`,
}

/** Refuses (429) while any of these keys is locked out; the right credential is refused too. */
export async function refuseWhileLocked(app: FastifyInstance, keys: string[]): Promise<void> {
  for (const key of keys) {
    const failures = await app.store.counters.peek(key)
    if (failures.hits >= FAILURES_ALLOWED) throw lockedOut(failures.resetMs)
  }
}

/** Counts a failure against each key; a 429 once one is over the limit. */
export async function countFailure(app: FastifyInstance, keys: string[]): Promise<void> {
  const counts = await app.store.counters.hit(keys.map((key) => ({ key, windowMs: FAILURE_WINDOW_MS })))
  const over = counts.find((count) => count.hits > FAILURES_ALLOWED)
  if (over) throw lockedOut(over.resetMs)
}

/** A new session id (256 random bits); only its hash is stored. */
export const newSessionId = () => randomBytes(32).toString('base64url')

/** The session cookie: `__Host-` and Secure behind https (where `__Host-` requires Path=/). */
export function sessionCookie(siteUrl: string) {
  const secure = siteUrl.startsWith('https:')
  return {
    name: secure ? '__Host-kennect_session' : 'kennect_session',
    options: {
      httpOnly: true,
      sameSite: 'strict' as const,
      secure,
      path: secure ? '/' : '/admin',
      maxAge: TEAM_TIMES.sessionMs / 1000,
    },
  }
}

export function setSessionCookie(app: FastifyInstance, reply: FastifyReply, id: string): void {
  const cookie = sessionCookie(app.siteUrl())
  void reply.setCookie(cookie.name, id, cookie.options)
}

export function clearSessionCookie(app: FastifyInstance, reply: FastifyReply): void {
  const cookie = sessionCookie(app.siteUrl())
  void reply.clearCookie(cookie.name, { path: cookie.options.path, secure: cookie.options.secure, sameSite: 'strict', httpOnly: true })
}

export function sessionIdOf(app: FastifyInstance, request: FastifyRequest): string | undefined {
  return request.cookies[sessionCookie(app.siteUrl()).name]
}

/** A line of the audit log for what this request did. */
export function auditOf(
  request: FastifyRequest,
  action: AuditAction,
  target: string | null = null,
  detail: Record<string, unknown> | null = null,
): AuditEntry {
  const caller = request.caller
  return {
    actorId: caller?.actorId ?? null,
    actor: caller?.label ?? 'nobody',
    action,
    target,
    detail,
    requestId: request.id,
  }
}

/** The caller, or a 401: for handlers of routes that need one (every route but the public ones). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new HttpError(401, 'unauthorized', 'Sign in first', { headers: { 'www-authenticate': 'Bearer' } })
  return request.caller
}

/**
 * The language the caller reads the admin in: a signed-in operator's own, English for a token (a
 * script's words stay as they were). The names the admin API gives for a reader (a breed's) are in it.
 */
export function localeOf(caller: Pick<Caller, 'operator'>): Locale {
  return caller.operator?.locale ?? DEFAULT_LOCALE
}

/** The signed-in operator of a `self` route. */
export function operatorOf(request: FastifyRequest): OperatorRecord {
  const operator = callerOf(request).operator
  if (!operator) throw new HttpError(403, 'forbidden', 'Only a signed-in operator can do this, not a token')
  return operator
}

/** Checks the caller may do what the route needs: a 403 changes nothing. */
export function checkPermission(request: FastifyRequest, needs: Permission | 'self', recent: boolean): void {
  const caller = callerOf(request)
  if (needs === 'self' ? caller.kind !== 'session' : !can(caller.role, needs))
    throw new HttpError(
      403,
      'forbidden',
      needs === 'self' ? 'Only a signed-in operator can do this' : `Your role (${caller.role}) may not do this (${needs})`,
    )
  if (recent && caller.kind === 'session' && Date.parse(caller.signedInAt ?? '') + TEAM_TIMES.recentSignInMs < Date.now())
    throw new HttpError(403, RECENT_SIGN_IN_REQUIRED, 'Sign in again to do this: it needs a sign-in within the last 15 minutes')
}

/**
 * A write that rides on a cookie must come from our own page: same origin, and JSON (or, where a
 * route takes an upload, its type: a cross-site form could send one, but never with our Origin).
 */
function checkSameOrigin(app: FastifyInstance, request: FastifyRequest): void {
  const origin = request.headers.origin
  const allowed = new Set([new URL(app.siteUrl()).origin, `${request.protocol}://${request.host}`])
  if (!origin || !allowed.has(origin)) throw new HttpError(403, 'cross_origin', 'A signed-in write must come from the admin page itself')
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
  const upload = request.routeOptions.config.accepts
  if (upload !== undefined && type === upload) return
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? ''))
    throw new HttpError(415, 'json_required', 'A signed-in write must send application/json')
}

/**
 * The admin API's gate: looks up the caller, then checks what the route needs. Registered in the
 * API's plugin before its routes: a route without `config.permission` is refused at start-up.
 */
export function teamGate(app: FastifyInstance, adminToken: string | undefined): void {
  app.decorateRequest('caller', null)
  app.addHook('onRoute', (route) => {
    const config = route.config as { permission?: Permission | 'self' | 'public'; recent?: boolean } | undefined
    if (route.method === 'HEAD' || route.method === 'OPTIONS') return
    if (!config?.permission) throw new Error(`admin route ${route.method} ${route.url} names no permission`)
    for (const method of [route.method].flat())
      app.adminApiRoutes.push({ method, url: route.url, permission: config.permission, recent: config.recent ?? false })
  })
  app.addHook('onRequest', async (request, reply) => {
    reply.headers({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' })
    const { permission = 'public', recent = false } = request.routeOptions.config
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]
    if (bearer !== undefined) request.caller = await tokenCaller(app, request, bearer, adminToken)
    else {
      const id = sessionIdOf(app, request)
      if (id) {
        const session = await app.store.team.session(hashToken(id), TEAM_TIMES.sessionIdleMs)
        if (session)
          request.caller = {
            kind: 'session',
            operator: session.operator,
            role: session.operator.role,
            tokenId: null,
            label: session.operator.email,
            actorId: session.operator.id,
            signedInAt: session.created_at,
            sessionHash: hashToken(id),
          }
        else clearSessionCookie(app, reply)
      }
      if (request.caller && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) checkSameOrigin(app, request)
    }
    if (permission === 'public') return
    checkPermission(request, permission, recent)
  })
}

/**
 * A bearer token: ADMIN_TOKEN, or an API token; anything else counts as a failure of the client (the
 * app's claim route asks the same: server/handoff/routes.ts).
 */
export async function tokenCaller(
  app: FastifyInstance,
  request: FastifyRequest,
  sent: string,
  adminToken: string | undefined,
): Promise<Caller> {
  const client = failureKeys.client(request)
  // Checked before the token: while a client is locked out, the right token is refused too, so
  // guessing stops and no answer tells a guesser that a guess was right.
  await refuseWhileLocked(app, [client])
  if (adminToken !== undefined && sameSecret(sent, adminToken))
    return {
      kind: 'admin-token',
      operator: null,
      role: 'owner',
      tokenId: null,
      label: 'ADMIN_TOKEN',
      actorId: null,
      signedInAt: null,
      sessionHash: null,
    }
  const token = await app.store.team.useToken(hashToken(sent))
  if (token)
    return {
      kind: 'token',
      operator: null,
      role: token.role,
      tokenId: token.id,
      label: `token ${token.name}`,
      actorId: null,
      signedInAt: null,
      sessionHash: null,
    }
  request.log.warn({ req: request }, 'admin: refused a request without a valid token')
  await countFailure(app, [client])
  throw new HttpError(401, 'unauthorized', 'The token is missing, wrong, expired or revoked', { headers: { 'www-authenticate': 'Bearer' } })
}
