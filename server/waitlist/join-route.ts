// The waitlist form without JavaScript (docs/decisions/003-no-script-form.md): a plain urlencoded
// post through the same limiter, rules and store as the PostgREST insert, answered by a redirect
// to the page, whose message for the outcome shows by CSS alone (`:target`). A thin adapter: every
// failure becomes one of the outcomes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { JOIN_PATH } from '../../contract/paths.js'
import { INVITE_PARAM } from '../../contract/growth.js'
import { localePath, LOCALE_COLUMN, readLocale } from '../../contract/locales.js'
import { type JoinOutcome, readCampaign } from '../../contract/waitlist.js'
import { checkRow } from './check-row.js'
import { platformOf } from '../handoff/platform.js'

/** A form post is an address and two short fields; anything bigger is not our form's. */
const MAX_FORM_BYTES = 2048

export async function joinRoute(app: FastifyInstance) {
  // Only the form's own encoding: JSON belongs to /rest/v1/waitlist (anything else is a 415).
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MAX_FORM_BYTES }, (_request, body, done) =>
    done(null, new URLSearchParams(String(body))),
  )
  app.post(JOIN_PATH, async (request, reply) => {
    const outcome = await join(app, request, reply)
    // Back to the page in the visitor's language, at the message for the outcome.
    const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams()
    const page = localePath(readLocale(form.get(LOCALE_COLUMN)))
    return reply.header('cache-control', 'no-store').redirect(`${page}#waitlist-${outcome}`, 303)
  })
}

async function join(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<JoinOutcome> {
  // The same order as the insert: the limiter counts every attempt, bots' included.
  if ((await app.insertLimiter(request, reply)) !== undefined) return 'busy'
  const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams()
  // docs/protocol.md, "The browser side": the honeypot filled means a bot; it is told what a person is.
  if (form.get('website')) return notStored(request, 'honeypot')
  const token = app.formTokens.check(form.get('token') ?? undefined)
  if (token === 'tooFast') return notStored(request, 'too fast')
  // A page older than a day, or sent by an instance with another FORM_SECRET: ask to send again.
  if (token === 'invalid') return 'expired'
  const checked = checkRow(
    { email: form.get('email') ?? undefined, locale: form.get(LOCALE_COLUMN) ?? undefined, ...campaignOf(request.headers.referer) },
    app.rowRules,
  )
  if (!checked.ok) return 'invalid'
  try {
    // The phone its browser names, and nothing else of its agent (docs/decisions/022-into-the-app.md).
    if ((await app.store.add({ ...checked.row, platform: platformOf(request.headers['user-agent']) })).mailQueued) app.mailer.nudge()
    return 'joined'
  } catch (error) {
    // Nothing was stored, and the visitor is told so: the sign-up is theirs to retry, not lost.
    request.log.error({ err: error }, 'no-script sign-up not stored: the store failed')
    return 'error'
  }
}

/**
 * The campaign and the inviter's code of the page the form was sent from: the page's own URL
 * arrives as the Referer (Referrer-Policy strict-origin-when-cross-origin keeps it whole on our
 * origin). The referring site of that visit is not known here; the script's path alone records it.
 * The code goes to checkRow as it is: a malformed one is ignored there.
 */
function campaignOf(referer: string | undefined): Record<string, string> {
  if (!referer || !URL.canParse(referer)) return {}
  const params = new URL(referer).searchParams
  const invite = params.get(INVITE_PARAM)
  return { ...readCampaign(params), ...(invite === null ? {} : { invite }) }
}

function notStored(request: FastifyRequest, reason: string): JoinOutcome {
  request.log.info({ reason }, 'no-script sign-up taken for a bot: success shown, nothing stored')
  return 'joined'
}
