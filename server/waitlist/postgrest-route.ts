// The PostgREST surface of the waitlist (docs/protocol.md): POST inserts one row; every other
// method and table answers exactly as Supabase would with the insert-only policy. A thin adapter:
// the request is read by prepareInsert, the row stored by the store, failures are catalogue rows.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import { WAITLIST_TABLE } from '../../contract/waitlist.js'
import { API_SECURITY_HEADERS } from '../http/security.js'
import { sameSecret } from '../secrets.js'
import { postgrestErrors as errors } from './postgrest-errors.js'
import { parsePrefer, prepareInsert } from './postgrest-insert.js'
import { platformOf } from '../handoff/platform.js'

/** docs/protocol.md row 7 (extension): a sign-up is a few hundred bytes; 16 KiB is generous. */
export const MAX_BODY_BYTES = 16 * 1024

type Query = Record<string, string | string[] | undefined>

/** Registered under REST_PREFIX; `anonKey` is WAITLIST_ANON_KEY. */
export async function postgrestRoutes(app: FastifyInstance, { anonKey }: { anonKey: string | undefined }) {
  // The body is read as text and parsed by the route: PostgREST's own checks decide the answer
  // (content type before size before JSON), not Fastify's parsers.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body))
  // The checks that need no waiting are plain callbacks, not async functions: each async hook costs
  // every sign-up a promise and a turn of the microtask queue (docs/performance.md, issue 23).
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(API_SECURITY_HEADERS)
    done()
  })
  // docs/protocol.md's order: rate limit (insert only), then the gateway's key checks, then the headers.
  const limitInsert = async (request: FastifyRequest, reply: FastifyReply) => {
    const wait = await app.insertLimiter(request, reply)
    if (wait !== undefined) throw errors.rateLimited(wait)
  }
  const gateway: onRequestHookHandler = (request, _reply, done) => {
    checkGateway(request, anonKey)
    done()
  }
  const insertHeaders: onRequestHookHandler = (request, _reply, done) => {
    checkInsertHeaders(request)
    done()
  }
  // With both limits at 0 nothing is counted, and the hook is left out rather than run for nothing.
  const insertChecks = app.insertLimiter.counts ? [limitInsert, gateway, insertHeaders] : [gateway, insertHeaders]

  app.post(`/${WAITLIST_TABLE}`, { helmet: false, onRequest: insertChecks }, async (request, reply) => {
    const query = request.query as Query
    const prefer = parsePrefer(request.headers.prefer)
    const row = prepareInsert({
      body: typeof request.body === 'string' ? request.body : undefined,
      columns: first(query.columns),
      onConflict: query.on_conflict !== undefined,
      prefer,
      blockedDomain: app.rowRules.blockedDomain,
    })
    // Answer only after commit: a 201 must survive a crash. A duplicate answers the same as a
    // new address, so the answer never tells whether an address is listed.
    // The phone its browser names, and nothing else of its agent (docs/decisions/022-into-the-app.md).
    if (row && (await app.store.add({ ...row, platform: platformOf(request.headers['user-agent']) })).mailQueued) app.mailer.nudge()
    return answerCreated(reply, prefer, row ? 1 : 0)
  })

  // The list can never be read, changed or deleted with the public key.
  app.route({
    method: ['GET', 'PATCH', 'DELETE'],
    url: `/${WAITLIST_TABLE}`,
    helmet: false,
    onRequest: gateway,
    handler: async () => {
      throw errors.permissionDenied()
    },
  })
  app.put(`/${WAITLIST_TABLE}`, { helmet: false, onRequest: gateway }, async () => {
    throw errors.putNotAllowed()
  })
  // Never an empty 404: supabase-js reads an empty 404 as success.
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/:table',
    helmet: false,
    onRequest: gateway,
    handler: async (request) => {
      throw errors.tableNotFound((request.params as { table: string }).table)
    },
  })
  app.setNotFoundHandler({ preValidation: gateway }, async () => {
    throw errors.invalidPath()
  })
}

function answerCreated(reply: FastifyReply, prefer: ReadonlyMap<string, string>, rows: number) {
  const applied: string[] = []
  if (prefer.get('return') === 'minimal') applied.push('return=minimal')
  const countExact = prefer.get('count') === 'exact'
  if (countExact) applied.push('count=exact')
  reply.code(201).header('content-range', countExact ? `*/${rows}` : '*/*')
  if (applied.length > 0) reply.header('preference-applied', applied.join(', '))
  return reply.send()
}

/** docs/protocol.md rows 2 to 4: what Supabase's gateway and PostgREST check before the request is read. */
function checkGateway(request: FastifyRequest, anonKey: string | undefined) {
  if (anonKey !== undefined) {
    const sent = first(request.headers.apikey) ?? first((request.query as Query).apikey)
    if (sent === undefined || sent === '') throw errors.noApiKey()
    if (!sameSecret(sent, anonKey)) throw errors.invalidApiKey()
  }
  const authorization = request.headers.authorization
  if (authorization === undefined || !/^bearer(\s|$)/i.test(authorization)) return
  const token = authorization.slice('bearer'.length).trim()
  if (token === '') throw errors.emptyJwt()
  if (anonKey !== undefined && sameSecret(token, anonKey)) return
  const parts = token.split('.').length
  if (parts !== 3) throw errors.malformedJwt(parts)
}

/** docs/protocol.md rows 5 and 6: schema and content type, checked before the body is read (row 7). */
function checkInsertHeaders(request: FastifyRequest) {
  const profile = first(request.headers['content-profile'])
  if (profile !== undefined && profile !== 'public') throw errors.invalidSchema(profile)
  const contentType = request.headers['content-type']
  if (contentType !== undefined && contentType.split(';')[0]?.trim().toLowerCase() !== 'application/json') {
    throw errors.contentTypeNotAcceptable(contentType)
  }
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
