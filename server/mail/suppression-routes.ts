// Bounces, complaints and the suppression list for the team (docs/decisions/019-suppression.md),
// under /admin/api: a report from any source of the team's own, and the list to read, search, add
// to, lift from and download. Editors and owners change it; each change is in the audit log.
import type { FastifyInstance } from 'fastify'
import {
  API_SOURCE_MAX_LENGTH,
  API_SOURCE_PREFIX,
  MAIL_EVENT_TYPES,
  type MailEventReport,
  type Suppression,
} from '../../contract/mail-events.js'
import { HttpError } from '../http/errors.js'
import { csvCell } from '../operators/csv.js'
import { auditOf } from '../team/auth.js'
import { messageKeyOf } from './report-fields.js'

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/
const LIST_LIMIT = 1000

/** The left part of a Message-ID (`<key@domain>`, brackets optional). */

export async function suppressionRoutes(app: FastifyInstance) {
  app.post(
    '/mail/events',
    {
      config: { permission: 'suppressions:write' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'source'],
          properties: {
            email: { type: 'string', maxLength: 320 },
            messageId: { type: 'string', maxLength: 400 },
            type: { type: 'string', enum: [...MAIL_EVENT_TYPES] },
            // Kept with its prefix in a column of 40: a longer one is a 400 here, not the column's 500.
            source: { type: 'string', minLength: 1, maxLength: API_SOURCE_MAX_LENGTH },
            eventId: { type: 'string', minLength: 1, maxLength: 200 },
          },
        },
      },
    },
    async (request, reply) => {
      const report = request.body as MailEventReport
      if (report.email === undefined && report.messageId === undefined)
        throw new HttpError(400, 'invalid_event', 'email or messageId: one of them names whom the event is about')
      if (report.email !== undefined && !ADDRESS.test(report.email))
        throw new HttpError(400, 'invalid_event', 'email: expected an address such as ada@example.com')
      const messageKey = report.messageId === undefined ? null : messageKeyOf(report.messageId)
      if (report.messageId !== undefined && messageKey === null)
        throw new HttpError(400, 'invalid_event', 'messageId: expected a Message-ID such as <key@kennect.app>')
      const outcome = await app.suppressions.report({
        email: report.email ?? null,
        messageKey,
        type: report.type,
        source: `${API_SOURCE_PREFIX}${report.source}`,
        eventId: report.eventId === undefined ? null : `${API_SOURCE_PREFIX}${report.source}:${report.eventId}`,
      })
      if (!outcome.found) throw new HttpError(404, 'not_found', 'messageId: no mail of ours has it')
      request.log.info({ type: report.type, recorded: outcome.recorded, suppressed: outcome.suppressed }, 'mail event reported')
      return reply.code(outcome.recorded ? 201 : 200).send({ recorded: outcome.recorded, suppressed: outcome.suppressed })
    },
  )

  const querySchema = {
    type: 'object',
    additionalProperties: false,
    properties: { q: { type: 'string', maxLength: 320 } },
  } as const

  app.get('/suppressions', { config: { permission: 'mail:read' }, schema: { querystring: querySchema } }, async (request) => {
    const { q } = request.query as { q?: string }
    return { items: await app.store.suppressions.list(q?.trim() ? q.trim() : null, LIST_LIMIT) } satisfies { items: Suppression[] }
  })

  app.get('/suppressions.csv', { config: { permission: 'mail:read' } }, async (_request, reply) => {
    const items = await app.store.suppressions.list(null, 1_000_000)
    const lines = ['email,reason,at', ...items.map((item) => [item.email, item.reason, item.at].map(csvCell).join(','))]
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="kennect-suppressions.csv"')
      .send(`${lines.join('\r\n')}\r\n`)
  })

  app.post(
    '/suppressions',
    {
      config: { permission: 'suppressions:write' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['email'],
          properties: { email: { type: 'string', maxLength: 320 } },
        },
      },
    },
    async (request, reply) => {
      const { email } = request.body as { email: string }
      if (!ADDRESS.test(email.trim())) throw new HttpError(400, 'invalid_email', 'email: expected an address such as ada@example.com')
      const hash = await app.suppressions.hash(email)
      const added = await app.store.suppressions.add(email.trim(), hash, auditOf(request, 'suppression added', null, { reason: 'manual' }))
      return reply.code(added ? 201 : 200).send({ email: email.trim().toLowerCase(), added })
    },
  )

  app.delete('/suppressions/:email', { config: { permission: 'suppressions:write' } }, async (request) => {
    const { email } = request.params as { email: string }
    const lifted = await app.store.suppressions.lift(await app.suppressions.hash(email), auditOf(request, 'suppression lifted'))
    if (!lifted) throw new HttpError(404, 'not_found', 'No suppression for that address')
    return { lifted: true }
  })
}
