// The admin API's webhooks, for owners (webhooks:manage; docs/decisions/018-webhooks.md): endpoints
// with their events, the signing secret shown once (and again at a rotation, the old one valid a
// day), the delivery log, resending, and a test event. Every change is in the audit log.
import type { FastifyInstance } from 'fastify'
import { randomBytes } from 'node:crypto'
import {
  isDisabledReason,
  isWebhookEvent,
  WEBHOOK_EVENTS,
  WEBHOOK_OLD_SECRET_MS,
  type WebhookAttempt,
  type WebhookEndpoint,
} from '../../contract/webhooks.js'
import { HttpError, tooMany } from '../http/errors.js'
import type { WebhookEndpointFields, WebhookEndpointRecord } from '../store/types.js'
import { auditOf } from '../team/auth.js'
import { AddressRefused, DEVELOPMENT_HINT, publicAddresses, urlProblem } from './address.js'

/** A new signing secret: whsec_ and 32 random bytes in base64, as Standard Webhooks has it. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`
/** Test events per endpoint per minute. */
export const TESTS_PER_MINUTE = 5

export const endpointOf = (row: WebhookEndpointRecord): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events.filter(isWebhookEvent),
  enabled: row.enabled,
  includeEmail: row.include_email,
  // A code, or nothing for a value no version of the worker writes.
  disabledReason: isDisabledReason(row.disabled_reason) ? row.disabled_reason : null,
  failingSince: row.failing_since,
  createdAt: row.created_at,
})

/** The fields of a body, each checked, the URL's address resolved: a 400 names the first wrong field. */
export async function checkedFields(
  body: Partial<Record<string, unknown>>,
  allowPrivate: boolean,
): Promise<Partial<WebhookEndpointFields>> {
  const fields: Partial<WebhookEndpointFields> = {}
  if (body.url !== undefined) {
    const url = String(body.url).trim()
    // The refusals a local receiver meets say how a developer allows it.
    const hint = allowPrivate ? '' : DEVELOPMENT_HINT
    const problem = urlProblem(url, allowPrivate, hint)
    if (problem) throw new HttpError(400, 'invalid_url', problem)
    try {
      await publicAddresses(new URL(url).hostname, allowPrivate)
    } catch (error) {
      throw new HttpError(
        400,
        'invalid_url',
        error instanceof AddressRefused ? `url: ${error.message}${hint}` : 'url: its host name does not resolve',
      )
    }
    fields.url = url
  }
  if (body.events !== undefined) {
    const events = body.events as unknown[]
    if (events.length === 0) throw new HttpError(400, 'invalid_events', `events: at least one of ${WEBHOOK_EVENTS.join(', ')}`)
    const unknown = events.find((event) => !isWebhookEvent(event))
    if (unknown !== undefined) throw new HttpError(400, 'invalid_events', `events: unknown event ${JSON.stringify(unknown)}`)
    fields.events = [...new Set(events as string[])]
  }
  if (body.description !== undefined) fields.description = String(body.description).trim()
  if (body.enabled !== undefined) fields.enabled = body.enabled === true
  if (body.includeEmail !== undefined) fields.include_email = body.includeEmail === true
  return fields
}

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const
const endpointBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    url: { type: 'string', maxLength: 4096 },
    events: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 60 } },
    description: { type: 'string', maxLength: 200 },
    enabled: { type: 'boolean' },
    includeEmail: { type: 'boolean' },
  },
} as const
const manage = { permission: 'webhooks:manage' } as const
const manageRecently = { permission: 'webhooks:manage', recent: true } as const

export async function webhookRoutes(app: FastifyInstance, { allowPrivate }: { allowPrivate: boolean }) {
  const found = async (id: number) => {
    const endpoint = await app.store.webhooks.endpoint(id)
    if (!endpoint) throw new HttpError(404, 'not_found', `No webhook ${id}`)
    return endpoint
  }

  app.get('/webhooks', { config: manage }, async (): Promise<WebhookEndpoint[]> => (await app.store.webhooks.endpoints()).map(endpointOf))

  app.post(
    '/webhooks',
    { config: manageRecently, schema: { body: { ...endpointBody, required: ['url', 'events'] } } },
    async (request, reply) => {
      const body = request.body as Record<string, unknown>
      const fields = await checkedFields(body, allowPrivate)
      const secret = newWebhookSecret()
      const endpoint = {
        url: fields.url ?? '',
        events: fields.events ?? [],
        description: fields.description ?? '',
        enabled: fields.enabled ?? true,
        include_email: fields.include_email ?? false,
      }
      const id = await app.store.webhooks.addEndpoint(
        { ...endpoint, secret },
        auditOf(request, 'webhook created', null, { url: endpoint.url, events: endpoint.events, includeEmail: endpoint.include_email }),
      )
      return reply.code(201).send({ ...endpointOf({ ...(await found(id)) }), secret })
    },
  )

  app.patch(
    '/webhooks/:id',
    { config: manageRecently, schema: { params: idParams, body: { ...endpointBody, minProperties: 1 } } },
    async (request) => {
      const { id } = request.params as { id: number }
      await found(id)
      const fields = await checkedFields(request.body as Record<string, unknown>, allowPrivate)
      const detail = { ...fields, ...(fields.include_email === undefined ? {} : { includeEmail: fields.include_email }) }
      delete detail.include_email
      await app.store.webhooks.changeEndpoint(id, fields, auditOf(request, 'webhook changed', `webhook ${id}`, detail))
      return endpointOf(await found(id))
    },
  )

  app.delete('/webhooks/:id', { config: manageRecently, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params as { id: number }
    if (!(await app.store.webhooks.removeEndpoint(id, auditOf(request, 'webhook deleted', `webhook ${id}`))))
      throw new HttpError(404, 'not_found', `No webhook ${id}`)
    return reply.code(204).send()
  })

  app.post('/webhooks/:id/rotate', { config: manageRecently, schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: number }
    await found(id)
    const secret = newWebhookSecret()
    const previousUntil = new Date(Date.now() + WEBHOOK_OLD_SECRET_MS).toISOString()
    await app.store.webhooks.rotateSecret(id, secret, previousUntil, auditOf(request, 'webhook secret rotated', `webhook ${id}`))
    return { secret, previousValidUntil: previousUntil }
  })

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: manage,
      schema: {
        params: idParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { before: { type: 'integer', minimum: 1 }, limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
        },
      },
    },
    async (request): Promise<{ items: WebhookAttempt[]; next: number | null }> => {
      const { id } = request.params as { id: number }
      const { before, limit } = request.query as { before?: number; limit: number }
      await found(id)
      const rows = await app.store.webhooks.attempts(id, { ...(before === undefined ? {} : { before }), limit })
      const items = rows.map((row) => ({
        id: row.id,
        deliveryId: row.delivery_id,
        event: row.event_type,
        webhookId: row.message_id,
        attempt: row.attempt,
        at: row.at,
        durationMs: row.duration_ms,
        status: row.status,
        response: row.response,
        error: row.error,
        state: row.state,
      }))
      return { items, next: items.length === limit ? (items.at(-1)?.id ?? null) : null }
    },
  )

  app.post(
    '/webhooks/:id/deliveries/:delivery/resend',
    {
      config: manage,
      schema: {
        params: {
          type: 'object',
          required: ['id', 'delivery'],
          properties: { id: { type: 'integer', minimum: 1 }, delivery: { type: 'integer', minimum: 1 } },
        },
      },
    },
    async (request, reply) => {
      const { id, delivery } = request.params as { id: number; delivery: number }
      if (!(await app.store.webhooks.resend(id, delivery, auditOf(request, 'webhook resent', `webhook ${id}`, { delivery }))))
        throw new HttpError(404, 'not_found', `No delivery ${delivery} of webhook ${id} to send again`)
      app.webhooks.nudge()
      return reply.code(202).send({ resent: 1 })
    },
  )

  app.post(
    '/webhooks/:id/resend',
    {
      config: manage,
      schema: {
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['since'],
          properties: { since: { type: 'string', maxLength: 40 } },
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: number }
      const since = Date.parse((request.body as { since: string }).since)
      if (Number.isNaN(since)) throw new HttpError(400, 'invalid_since', 'since: a moment, such as 2026-11-24T00:00:00Z')
      await found(id)
      const resent = await app.store.webhooks.resendFailed(
        id,
        new Date(since).toISOString(),
        auditOf(request, 'webhook resent', `webhook ${id}`, { since: new Date(since).toISOString() }),
      )
      app.webhooks.nudge()
      return reply.code(202).send({ resent })
    },
  )

  app.post('/webhooks/:id/test', { config: manage, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params as { id: number }
    await found(id)
    const [tests] = await app.store.counters.hit([{ key: `webhooks:test:${id}`, windowMs: 60_000 }])
    if ((tests?.hits ?? 0) > TESTS_PER_MINUTE)
      throw tooMany('too_many_tests', `At most ${TESTS_PER_MINUTE} test events a minute`, tests?.resetMs ?? 60_000)
    await app.store.webhooks.sendTest(
      id,
      { id: 0, role: 'breeder', country: 'DE', breeds: ['Golden Retriever'], locale: 'de', source: 'test', partner: null },
      auditOf(request, 'webhook test sent', `webhook ${id}`),
    )
    app.webhooks.nudge()
    return reply.code(202).send({ sent: true })
  })
}
