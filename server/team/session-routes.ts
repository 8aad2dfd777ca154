// The ways in (docs/decisions/017-the-team.md), under /admin/api: who is signed in, signing out,
// an e-mail sign-in link, a passkey, and the setup or invitation link that makes an operator.
// Every sign-in makes a new session (a new id: a session id planted before cannot be promoted).
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { acceptedLanguages, DEFAULT_LOCALE, firstLocaleOf, type Locale, LOCALES } from '../../contract/locales.js'
import { ROLE_PERMISSIONS, type SessionInfo, type SetupLinkInfo, TEAM_TIMES } from '../../contract/team.js'
import { HttpError, tooMany } from '../http/errors.js'
import { hashToken, TOKEN_PATTERN } from '../secrets.js'
import type { SignIn } from '../store/types.js'
import { isValidEmail } from '../waitlist/check-row.js'
import {
  auditOf,
  type Caller,
  callerOf,
  clearSessionCookie,
  countFailure,
  failureKeys,
  localeOf,
  newSessionId,
  refuseWhileLocked,
  sessionIdOf,
  setSessionCookie,
} from './auth.js'
import {
  authenticationOptions,
  newUserHandle,
  passkeyName,
  registrationOptions,
  relyingParty,
  verifyAuthentication,
  verifyRegistration,
} from './webauthn.js'

/** An answer to a sign-in link request takes at least this long, known address or not. */
export const LINK_ANSWER_FLOOR_MS = 300
/** Sign-in links: per address and per client, per hour. */
export const LINKS_PER_ADDRESS = 5
export const LINKS_PER_CLIENT = 20
const HOUR_MS = 60 * 60_000

const publicRoute = { permission: 'public' } as const

export function sessionInfo(caller: Caller | null): SessionInfo {
  if (!caller) throw new HttpError(401, 'unauthorized', 'Sign in first')
  const operator = caller.operator
  return {
    operator: operator ? { id: operator.id, email: operator.email, name: operator.name, role: operator.role } : null,
    token: operator ? null : caller.label,
    permissions: [...ROLE_PERMISSIONS[caller.role]],
    signedInAt: caller.signedInAt,
    locale: localeOf(caller),
  }
}

/**
 * Signs in: the store does all of it in one transaction (the link used up, the operator made, the
 * passkey kept, the session made, the line in the audit log); the cookie is set once it is done.
 * A session the browser already had is ended.
 */
export async function startSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  signIn: Omit<SignIn, 'session'>,
): Promise<SessionInfo | undefined> {
  const id = newSessionId()
  const previous = sessionIdOf(app, request)
  const result = await app.store.team.signIn({
    ...signIn,
    session: {
      idHash: hashToken(id),
      lengthMs: TEAM_TIMES.sessionMs,
      ...(previous ? { replaces: hashToken(previous) } : {}),
    },
  })
  if (!result) return undefined
  setSessionCookie(app, reply, id)
  const { operator } = result
  return sessionInfo({
    kind: 'session',
    operator,
    role: operator.role,
    tokenId: null,
    label: operator.email,
    actorId: operator.id,
    signedInAt: new Date().toISOString(),
    sessionHash: hashToken(id),
  })
}

const emailBody = {
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: { email: { type: 'string', minLength: 3, maxLength: 254 } },
} as const
const tokenParams = { type: 'object', required: ['token'], properties: { token: { type: 'string', maxLength: 100 } } } as const
/** A WebAuthn response as the browser library sends it: checked by the verifier, not here. */
const ceremonyResponse = { type: 'object', required: ['id', 'response'], properties: { id: { type: 'string', maxLength: 1024 } } } as const

export async function sessionRoutes(app: FastifyInstance, { siteConfigured }: { siteConfigured: boolean }) {
  const rpOf = (request: FastifyRequest) => relyingParty(app, request, siteConfigured)

  app.get('/session', { config: publicRoute }, async (request) => sessionInfo(request.caller))
  // The admin page's question at load: signed out is an answer, not an error (no 401 in its
  // console). `/session` keeps its 401 for API clients.
  app.get('/session/current', { config: publicRoute }, async (request) => ({
    session: request.caller ? sessionInfo(request.caller) : null,
  }))

  // The caller as GET /session answers it, and each operator's own language: theirs alone, what
  // their admin page and their mails speak (docs/decisions/027-the-back-office-in-six-languages.md).
  app.get('/me', { config: publicRoute }, async (request) => sessionInfo(request.caller))
  app.patch(
    '/me',
    {
      config: { permission: 'self' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['locale'],
          properties: { locale: { type: 'string', enum: [...LOCALES] } },
        },
      },
    },
    async (request) => {
      const { locale } = request.body as { locale: Locale }
      const caller = callerOf(request)
      if (!caller.operator || !(await app.store.team.setOperatorLocale(caller.operator.id, locale)))
        throw new HttpError(404, 'not_found', 'No such operator')
      return sessionInfo({ ...caller, operator: { ...caller.operator, locale } })
    },
  )

  app.delete('/session', { config: publicRoute }, async (request, reply) => {
    const id = sessionIdOf(app, request)
    if (id) await app.store.team.endSession(hashToken(id), request.caller ? auditOf(request, 'sign-out') : null)
    clearSessionCookie(app, reply)
    return reply.code(204).send()
  })

  // The same answer, after the same time, for any address: nobody learns who is on the team.
  app.post('/session/link', { config: publicRoute, schema: { body: emailBody } }, async (request, reply) => {
    const started = Date.now()
    const { email } = request.body as { email: string }
    const [forClient, forAddress] = await app.store.counters.hit([
      { key: `team:link:client:${failureKeys.client(request)}`, windowMs: HOUR_MS },
      { key: `team:link:address:${hashToken(email.trim().toLowerCase())}`, windowMs: HOUR_MS },
    ])
    if ((forClient?.hits ?? 0) > LINKS_PER_CLIENT)
      throw tooMany('too_many_links', 'Too many sign-in links asked from here: try again within the hour', forClient?.resetMs ?? HOUR_MS)
    const operator = isValidEmail(email) ? await app.store.team.operatorByEmail(email.trim()) : undefined
    if (operator && operator.disabled_at === null && (forAddress?.hits ?? 0) <= LINKS_PER_ADDRESS) {
      await app.store.team.addLink(
        {
          purpose: 'sign-in',
          email: operator.email,
          role: null,
          operator_id: operator.id,
          // Mailed in the operator's own language (the outbox reads it through the operator).
          locale: null,
          createdBy: null,
          expires_at: new Date(Date.now() + TEAM_TIMES.signInLinkMs).toISOString(),
        },
        {
          mail: true,
          audit: { ...auditOf(request, 'sign-in link sent', `operator ${operator.id}`), actorId: operator.id, actor: operator.email },
        },
      )
      app.mailer.nudge()
    }
    const wait = LINK_ANSWER_FLOOR_MS - (Date.now() - started)
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    return reply.code(202).send({ sent: 'If this address belongs to the team, a sign-in link is on its way.' })
  })

  app.post('/session/passkey/options', { config: publicRoute }, async (request) => {
    await refuseWhileLocked(app, [failureKeys.client(request)])
    return authenticationOptions(app, rpOf(request))
  })

  app.post(
    '/session/passkey',
    {
      config: publicRoute,
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['challengeId', 'response'],
          properties: { challengeId: { type: 'string', maxLength: 100 }, response: ceremonyResponse },
        },
      },
    },
    async (request, reply) => {
      const { challengeId, response } = request.body as { challengeId: string; response: AuthenticationResponseJSON }
      const client = failureKeys.client(request)
      await refuseWhileLocked(app, [client])
      const passkey = await app.store.team.passkey(response.id)
      const operator = passkey ? await app.store.team.operator(passkey.operator_id) : undefined
      const fail = async (why: string) => {
        await app.store.team.audit({
          ...auditOf(request, 'sign-in failed', operator ? `operator ${operator.id}` : null, { method: 'passkey', why }),
          actorId: operator?.id ?? null,
          actor: operator?.email ?? 'unknown passkey',
        })
        await countFailure(app, operator ? [client, failureKeys.operator(operator.id)] : [client])
        throw new HttpError(401, 'sign_in_failed', 'That passkey did not sign you in')
      }
      if (!passkey || !operator) return fail('unknown passkey')
      await refuseWhileLocked(app, [failureKeys.operator(operator.id)])
      if (operator.disabled_at !== null) return fail('disabled')
      const verified = await verifyAuthentication(app, rpOf(request), challengeId, response, passkey)
      if (!verified.ok) return fail(verified.why)
      const info = await startSession(app, request, reply, {
        operator: { id: operator.id },
        usedPasskey: { id: passkey.id, counter: verified.counter },
        audit: {
          action: 'sign-in',
          target: `operator ${operator.id}`,
          detail: { method: 'passkey', passkey: passkey.name },
          requestId: request.id,
        },
      })
      return info
    },
  )

  /** The setup or invitation link behind a token, or a 404 that says nothing more. */
  const linkOf = async (request: FastifyRequest) => {
    const { token } = request.params as { token: string }
    const link = TOKEN_PATTERN.test(token) ? await app.store.team.openLink(hashToken(token), ['setup', 'invite']) : undefined
    if (!link) {
      await countFailure(app, [failureKeys.client(request)])
      throw new HttpError(404, 'link_gone', 'This link has expired or was already used: ask an owner for a new one')
    }
    return { link, tokenHash: hashToken(token) }
  }
  /** The address a setup makes an operator of: the invitation's, or (the first owner's link) the one typed. */
  const emailFor = async (link: { email: string | null }, typed: string | undefined) => {
    const email = (link.email ?? typed ?? '').trim()
    if (!isValidEmail(email)) throw new HttpError(400, 'invalid_email', 'email: an address a mail can go to is needed')
    if (await app.store.team.operatorByEmail(email))
      throw new HttpError(409, 'operator_exists', 'An operator with this address exists: sign in instead')
    return email
  }

  app.get('/setup/:token', { config: publicRoute, schema: { params: tokenParams } }, async (request) => {
    await refuseWhileLocked(app, [failureKeys.client(request)])
    const { link } = await linkOf(request)
    const info: SetupLinkInfo = {
      // (openLink took only these two purposes.)
      purpose: link.purpose === 'setup' ? 'setup' : 'invite',
      email: link.email,
      role: link.role ?? 'owner',
      expires_at: link.expires_at,
      locale: link.locale,
    }
    return info
  })

  const setupBody = {
    type: 'object',
    additionalProperties: false,
    properties: {
      email: { type: 'string', maxLength: 254 },
      name: { type: 'string', maxLength: 100 },
      challengeId: { type: 'string', maxLength: 100 },
      passkeyName: { type: 'string', maxLength: 60 },
      response: ceremonyResponse,
    },
  } as const

  app.post('/setup/:token/options', { config: publicRoute, schema: { params: tokenParams, body: setupBody } }, async (request) => {
    await refuseWhileLocked(app, [failureKeys.client(request)])
    const { link } = await linkOf(request)
    const body = request.body as { email?: string; name?: string }
    const email = await emailFor(link, body.email)
    return registrationOptions(app, rpOf(request), {
      email,
      name: body.name ?? '',
      userHandle: newUserHandle(),
      operatorId: null,
      existing: [],
    })
  })

  app.post('/setup/:token', { config: publicRoute, schema: { params: tokenParams, body: setupBody } }, async (request, reply) => {
    await refuseWhileLocked(app, [failureKeys.client(request)])
    const { link, tokenHash } = await linkOf(request)
    const body = request.body as {
      email?: string
      name?: string
      challengeId?: string
      passkeyName?: string
      response?: RegistrationResponseJSON
    }
    const email = await emailFor(link, body.email)
    let registered: Awaited<ReturnType<typeof verifyRegistration>> | undefined
    if (body.response)
      registered = await verifyRegistration(app, rpOf(request), body.challengeId ?? '', body.response, { operatorId: null })
    // The first owner comes in with a passkey: on a fresh machine a sign-in link would land in a
    // mailbox only an operator can open.
    else if (link.purpose === 'setup') throw new HttpError(400, 'passkey_required', 'The first owner signs in with a passkey: create one')
    // An invitation's language; the first owner's browser's, among ours.
    const locale = link.locale ?? firstLocaleOf(acceptedLanguages(request.headers['accept-language'])) ?? DEFAULT_LOCALE
    const info = await startSession(app, request, reply, {
      link: { tokenHash, purposes: ['setup', 'invite'] },
      operator: {
        email,
        name: (body.name ?? '').trim(),
        role: link.role ?? 'owner',
        userHandle: registered?.userHandle ?? newUserHandle(),
        locale,
      },
      ...(registered ? { newPasskey: { ...registered.passkey, name: passkeyName(body.passkeyName, locale) } } : {}),
      audit: {
        action: 'invitation accepted',
        target: `link ${link.id}`,
        detail: { role: link.role ?? 'owner', passkey: registered !== undefined, first: link.purpose === 'setup' },
        requestId: request.id,
      },
    })
    if (!info) throw new HttpError(404, 'link_gone', 'This link has expired or was already used: ask an owner for a new one')
    return reply.code(201).send(info)
  })
}
