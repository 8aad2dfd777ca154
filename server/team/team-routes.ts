// The team, managed by its owners (docs/decisions/017-the-team.md), under /admin/api: operators
// and invitations, API tokens, each operator's own passkeys, and the audit log. Every change is
// written with its line in the audit log, in one transaction.
import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import type { FastifyInstance } from 'fastify'
import {
  type ApiTokenSummary,
  type AuditPage,
  OPERATOR_ROLES,
  TOKEN_ROLES,
  type TokenRole,
  type OperatorRole,
  type PasskeySummary,
  TEAM_TIMES,
  type TeamOverview,
} from '../../contract/team.js'
import { type Locale, LOCALES } from '../../contract/locales.js'
import { HttpError } from '../http/errors.js'
import { hashToken, newToken } from '../secrets.js'
import { isValidEmail } from '../waitlist/check-row.js'
import { auditOf, callerOf, localeOf, operatorOf } from './auth.js'
import { passkeyName, registrationOptions, relyingParty, verifyRegistration } from './webauthn.js'

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const
const role = { type: 'string', enum: OPERATOR_ROLES } as const
/** A token may also be the app's own (contract/team.ts TOKEN_ROLES); a person never. */
const tokenRole = { type: 'string', enum: TOKEN_ROLES } as const
/** An API token: a prefix that says what it is (secret scanners know such prefixes), then 256 random bits. */
export const API_TOKEN_PREFIX = 'kn_'

export async function teamRoutes(app: FastifyInstance, { siteConfigured }: { siteConfigured: boolean }) {
  app.get('/operators', { config: { permission: 'team:manage' } }, async (): Promise<TeamOverview> => {
    const [operators, invitations] = await Promise.all([app.store.team.operators(), app.store.team.invitations()])
    return {
      operators: operators.map((o) => ({
        id: o.id,
        email: o.email,
        name: o.name,
        role: o.role,
        disabled: o.disabled_at !== null,
        created_at: o.created_at,
        passkeys: o.passkeys,
      })),
      invitations: invitations.map((i) => ({
        id: i.id,
        email: i.email ?? '',
        role: i.role ?? 'viewer',
        created_at: i.created_at,
        expires_at: i.expires_at,
      })),
    }
  })

  // An invitation by mail: the link and its mail in one transaction (the outbox sends it).
  app.post(
    '/operators',
    {
      config: { permission: 'team:manage', recent: true },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['email', 'role'],
          // `locale`: the invitation's language, which the invitee starts in (the inviter's unless said).
          properties: { email: { type: 'string', maxLength: 254 }, role, locale: { type: 'string', enum: [...LOCALES] } },
        },
      },
    },
    async (request, reply) => {
      const { email, role: invitedRole, locale } = request.body as { email: string; role: OperatorRole; locale?: Locale }
      const address = email.trim()
      if (!isValidEmail(address)) throw new HttpError(400, 'invalid_email', 'email: not an address a mail can go to')
      if (await app.store.team.operatorByEmail(address)) throw new HttpError(409, 'operator_exists', 'email: already on the team')
      const { id } = await app.store.team.addLink(
        {
          purpose: 'invite',
          email: address,
          role: invitedRole,
          operator_id: null,
          locale: locale ?? localeOf(callerOf(request)),
          createdBy: callerOf(request).actorId,
          expires_at: new Date(Date.now() + TEAM_TIMES.inviteLinkMs).toISOString(),
        },
        // The invitee's address is the team's own, not a visitor's: the log may name it.
        { mail: true, audit: auditOf(request, 'operator invited', null, { email: address, role: invitedRole }) },
      )
      app.mailer.nudge()
      return reply.code(201).send({ id })
    },
  )

  // An invitation sent to the wrong address, or no longer wanted: its link stops opening now.
  app.delete(
    '/operators/invitations/:id',
    { config: { permission: 'team:manage', recent: true }, schema: { params: idParams } },
    async (request, reply) => {
      const { id } = request.params as { id: number }
      const revoked = await app.store.team.revokeInvitation(id, auditOf(request, 'invitation revoked', `invitation ${id}`))
      if (!revoked) throw new HttpError(404, 'not_found', `No open invitation ${id}`)
      return reply.code(204).send()
    },
  )

  app.patch(
    '/operators/:id',
    {
      config: { permission: 'team:manage', recent: true },
      schema: {
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          maxProperties: 1,
          properties: { role, disabled: { type: 'boolean' } },
        },
      },
    },
    async (request) => {
      const { id } = request.params as { id: number }
      const change = request.body as { role?: OperatorRole; disabled?: boolean }
      const action = change.role !== undefined ? 'role changed' : change.disabled ? 'operator disabled' : 'operator enabled'
      const outcome = await app.store.team.changeOperator(id, change, auditOf(request, action, `operator ${id}`, change))
      if (outcome === 'unknown') throw new HttpError(404, 'not_found', `No operator ${id}`)
      if (outcome === 'last-owner') throw new HttpError(409, 'last_owner', 'The team needs an enabled owner: make another owner first')
      return { id, ...change }
    },
  )

  app.get('/tokens', { config: { permission: 'team:manage' } }, async (): Promise<ApiTokenSummary[]> =>
    (await app.store.team.tokens()).map(({ revoked_at, ...token }) => ({ ...token, revoked: revoked_at !== null })),
  )

  app.post(
    '/tokens',
    {
      config: { permission: 'team:manage', recent: true },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'role'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 60 },
            role: tokenRole,
            expiresAt: { type: 'string', maxLength: 40 },
          },
        },
      },
    },
    async (request, reply) => {
      const { name, role: tokenRole, expiresAt } = request.body as { name: string; role: TokenRole; expiresAt?: string }
      const expires = expiresAt === undefined ? null : Date.parse(expiresAt)
      if (expires !== null && (Number.isNaN(expires) || expires <= Date.now()))
        throw new HttpError(400, 'invalid_expiry', 'expiresAt: a moment in the future, such as 2027-01-31T00:00:00Z')
      // Shown this once: only its hash is kept.
      const token = `${API_TOKEN_PREFIX}${newToken()}`
      const id = await app.store.team.addToken(
        {
          name: name.trim(),
          role: tokenRole,
          tokenHash: hashToken(token),
          createdBy: callerOf(request).actorId,
          expiresAt: expires === null ? null : new Date(expires).toISOString(),
        },
        auditOf(request, 'token created', null, { name: name.trim(), role: tokenRole }),
      )
      return reply.code(201).send({ id, token })
    },
  )

  app.delete(
    '/tokens/:id',
    { config: { permission: 'team:manage', recent: true }, schema: { params: idParams } },
    async (request, reply) => {
      const { id } = request.params as { id: number }
      if (!(await app.store.team.revokeToken(id, auditOf(request, 'token revoked', `token ${id}`))))
        throw new HttpError(404, 'not_found', `No token ${id} to revoke`)
      return reply.code(204).send()
    },
  )

  // Each operator's own passkeys: several, each named, removable.
  app.get('/passkeys', { config: { permission: 'self' } }, async (request): Promise<PasskeySummary[]> =>
    (await app.store.team.passkeys(operatorOf(request).id)).map(({ id, name, created_at, last_used_at }) => ({
      id,
      name,
      created_at,
      last_used_at,
    })),
  )

  app.post('/passkeys/options', { config: { permission: 'self' } }, async (request) => {
    const operator = operatorOf(request)
    return registrationOptions(app, relyingParty(app, request, siteConfigured), {
      email: operator.email,
      name: operator.name,
      userHandle: operator.user_handle,
      operatorId: operator.id,
      existing: await app.store.team.passkeys(operator.id),
    })
  })

  app.post(
    '/passkeys',
    {
      config: { permission: 'self' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['challengeId', 'response'],
          properties: {
            challengeId: { type: 'string', maxLength: 100 },
            name: { type: 'string', maxLength: 60 },
            response: { type: 'object', required: ['id', 'response'], properties: { id: { type: 'string', maxLength: 1024 } } },
          },
        },
      },
    },
    async (request, reply) => {
      const operator = operatorOf(request)
      const { challengeId, name, response } = request.body as { challengeId: string; name?: string; response: RegistrationResponseJSON }
      const { passkey } = await verifyRegistration(app, relyingParty(app, request, siteConfigured), challengeId, response, {
        operatorId: operator.id,
      })
      const named = passkeyName(name, operator.locale)
      await app.store.team.addPasskey(
        operator.id,
        { ...passkey, name: named },
        auditOf(request, 'passkey added', `operator ${operator.id}`, { name: named }),
      )
      return reply.code(201).send({ id: passkey.id, name: named })
    },
  )

  app.delete(
    '/passkeys/:id',
    {
      config: { permission: 'self', recent: true },
      schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 1024 } } } },
    },
    async (request, reply) => {
      const operator = operatorOf(request)
      const { id } = request.params as { id: string }
      if (!(await app.store.team.removePasskey(operator.id, id, auditOf(request, 'passkey removed', `operator ${operator.id}`))))
        throw new HttpError(404, 'not_found', 'No such passkey of yours')
      return reply.code(204).send()
    },
  )

  app.get(
    '/audit',
    {
      config: { permission: 'audit:read' },
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { before: { type: 'integer', minimum: 1 }, limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
        },
      },
    },
    async (request): Promise<AuditPage> => {
      const { before, limit } = request.query as { before?: number; limit: number }
      const items = await app.store.team.auditLog({ ...(before === undefined ? {} : { before }), limit })
      return { items, next: items.length === limit ? (items.at(-1)?.id ?? null) : null }
    },
  )
}
