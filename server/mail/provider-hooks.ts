// Bounces and complaints that mail providers report later, by webhook (docs/decisions/019-suppression.md):
// one route per row of the providers' table (report-sources.ts). A provider not configured answers
// 404; a request its provider did not sign 401 and records nothing; a single-use key seen before
// (any instance, any start) 401, and it is taken by every request whose signature holds, its
// events ignored or not; a report's events are recorded in one transaction, each once
// (the provider's own id, remembered past its retry window); an event of another kind is answered
// 2xx and ignored. The answer says how many events were new: `{ "recorded": n }`.
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { ClaimedMail } from '../store/types.js'
import {
  type Answer,
  isAnswer,
  POSTMARK_METADATA_KEY,
  type ProviderHookOptions,
  REPORT_SOURCES,
  type ReportRoute,
} from './report-sources.js'
import type { OutgoingMail } from './transport.js'

export type { ProviderHookOptions } from './report-sources.js'

export function withPostmarkMetadata(
  enabled: boolean,
  compose: (mail: ClaimedMail) => Promise<OutgoingMail>,
): (mail: ClaimedMail) => Promise<OutgoingMail> {
  if (!enabled) return compose
  return async (mail) => {
    const outgoing = await compose(mail)
    return { ...outgoing, headers: { ...outgoing.headers, [`X-PM-Metadata-${POSTMARK_METADATA_KEY}`]: mail.messageKey } }
  }
}

const answer = (reply: FastifyReply, { status, body, headers }: Answer) =>
  reply
    .code(status)
    .headers(headers ?? {})
    .send(body)

export async function providerHooks(app: FastifyInstance, options: ProviderHookOptions) {
  const route = (on: FastifyInstance, source: ReportRoute) => {
    const checks = source.open(options)
    on.post(`/hooks/mail/${source.name}`, { bodyLimit: source.bodyLimit }, async (request, reply) => {
      if (checks === undefined) return reply.code(404).send({ error: 'not_found' })
      const proven = await checks.verify({ headers: request.headers, body: request.body, log: request.log })
      if (isAnswer(proven)) return answer(reply, proven)
      const events = checks.parse(proven.payload)
      const singleUse = { once: proven.once ?? [], rememberMs: source.rememberMs }
      if (isAnswer(events)) {
        // Its signature is spent all the same: a signature covers no event (Mailgun's), so an ignored
        // delivery's, left unspent, would come back carrying a forged bounce.
        if (singleUse.once.length > 0 && (await app.suppressions.reportAll([], singleUse)) === null)
          return reply.code(401).send({ error: 'unauthorized' })
        return answer(reply, events)
      }
      const outcomes = await app.suppressions.reportAll(
        events.map((event) => ({ ...event, source: source.name })),
        singleUse,
      )
      // A single-use key taken before: a replay, whatever events it now carries.
      if (outcomes === null) return reply.code(401).send({ error: 'unauthorized' })
      const recorded = outcomes.filter((outcome) => outcome.recorded).length
      request.log.info(
        { source: source.name, events: events.length, recorded, suppressed: outcomes.filter((outcome) => outcome.suppressed).length },
        'mail events from a provider',
      )
      return reply.code(200).send({ recorded })
    })
  }
  for (const source of REPORT_SOURCES) if (!source.raw) route(app, source)
  // The sources whose signature covers the body as sent take it as text and parse it themselves
  // (SNS posts JSON as text/plain).
  await app.register(async (raw) => {
    raw.removeContentTypeParser(['application/json', 'text/plain'])
    // The routes' own limits apply (each route's bodyLimit is the parser's).
    raw.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (_request, body, done) => done(null, body))
    for (const source of REPORT_SOURCES) if (source.raw) route(raw, source)
  })
}
