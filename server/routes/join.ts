// The waitlist form without JavaScript (issue #6): a plain urlencoded post that goes through the
// same limiter, checks and store as the PostgREST insert, answered by a redirect to the page, whose
// message for the outcome shows by CSS alone (`:target`, web/sections/waitlist.tsx).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { FormTokens } from '../form-token.js'
import type { InsertLimiter } from '../plugins/insert-rate-limit.js'
import { PostgrestError } from '../postgrest.js'
import { type AttributionColumn, MAX_ATTRIBUTION_LENGTH, toRow } from '../waitlist-row.js'

export const JOIN_PATH = '/join'
/** A form post is an address and two short fields; anything bigger is not our form's. */
const MAX_FORM_BYTES = 2048

/** Each outcome's message on the page is the element with id `waitlist-<outcome>`. */
export const JOIN_OUTCOMES = ['joined', 'invalid', 'expired', 'busy', 'error'] as const
export type JoinOutcome = (typeof JOIN_OUTCOMES)[number]

export interface JoinRouteOptions {
  limiter: InsertLimiter | undefined
  tokens: FormTokens
  blockedDomain: ((domain: string) => boolean) | undefined
}

export async function joinRoute(app: FastifyInstance, options: JoinRouteOptions) {
  // Only the form's own encoding: JSON belongs to /rest/v1/waitlist (anything else is a 415).
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: MAX_FORM_BYTES },
    (_request, body, done) => done(null, new URLSearchParams(String(body))),
  )
  app.post(JOIN_PATH, async (request, reply) => {
    const outcome = await join(app, request, reply, options)
    return reply.header('cache-control', 'no-store').redirect(`/#waitlist-${outcome}`, 303)
  })
}

async function join(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, options: JoinRouteOptions): Promise<JoinOutcome> {
  // The same order as the insert: the limiter counts every attempt, bots' included.
  if (options.limiter && (await options.limiter(request, reply)) !== undefined) return 'busy'
  const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams()
  // PROTOCOL.md, "The browser side": the honeypot filled means a bot; it is told what a person is.
  if (form.get('website')) return notStored(request, 'honeypot')
  const token = options.tokens.check(form.get('token') ?? undefined)
  if (token === 'tooFast') return notStored(request, 'too fast')
  // A page older than a day, or sent by an instance with another FORM_SECRET: ask to send again.
  if (token === 'invalid') return 'expired'
  let row
  try {
    row = toRow({ email: form.get('email') ?? undefined, ...campaignOf(request.headers.referer) }, options.blockedDomain)
  } catch (error) {
    if (error instanceof PostgrestError && error.status === 400) return 'invalid'
    throw error
  }
  try {
    await app.store.add(row)
    return 'joined'
  } catch (error) {
    // Nothing was stored, and the visitor is told so: the sign-up is theirs to retry, not lost.
    request.log.error({ err: error }, 'no-script sign-up not stored: the store failed')
    return 'error'
  }
}

/**
 * The campaign of the page the form was sent from: the page's own URL arrives as the Referer
 * (Referrer-Policy strict-origin-when-cross-origin keeps it whole on our origin). The referring
 * site of that visit is not known here; the script's path alone records it.
 */
function campaignOf(referer: string | undefined): Partial<Record<AttributionColumn, string>> {
  const campaign: Partial<Record<AttributionColumn, string>> = {}
  if (!referer || !URL.canParse(referer)) return campaign
  const { searchParams } = new URL(referer)
  for (const key of ['utm_source', 'utm_medium', 'utm_campaign'] as const) {
    const value = searchParams.get(key)?.trim()
    if (value) campaign[key] = value.slice(0, MAX_ATTRIBUTION_LENGTH)
  }
  return campaign
}

function notStored(request: FastifyRequest, reason: string): JoinOutcome {
  request.log.info({ reason }, 'no-script sign-up taken for a bot: success shown, nothing stored')
  return 'joined'
}
