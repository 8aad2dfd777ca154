// The first owner's way in (docs/decisions/017-the-team.md): while the team has no operator, each
// start makes a single-use setup link, valid one hour, and prints it on one line. The command line
// makes such links too (`operator invite`).
import type { FastifyInstance } from 'fastify'
import { TEAM_PATHS } from '../../contract/paths.js'
import { type OperatorRole, TEAM_TIMES } from '../../contract/team.js'
import type { AuditEntry, WaitlistStore } from '../store/types.js'

/** A setup link for `email` (or, with none, for whoever opens it first) with that role. */
export async function setupLink(
  store: WaitlistStore,
  siteUrl: string,
  invite: { email: string | null; role: OperatorRole },
  actor: string,
): Promise<string> {
  const audit: AuditEntry = {
    actorId: null,
    actor,
    action: 'setup link made',
    target: null,
    detail: { email: invite.email, role: invite.role },
    requestId: null,
  }
  const { token } = await store.team.addLink(
    {
      purpose: 'setup',
      email: invite.email,
      role: invite.role,
      operator_id: null,
      // Printed, not mailed: the first owner starts in their browser's language.
      locale: null,
      createdBy: null,
      expires_at: new Date(Date.now() + TEAM_TIMES.setupLinkMs).toISOString(),
    },
    { mail: false, audit },
  )
  return `${siteUrl}${TEAM_PATHS.setup}/${token}`
}

/** At start: the line that lets the first owner in, while there is no operator. */
export async function announceSetup(app: FastifyInstance, print: (line: string) => void): Promise<void> {
  if (await app.store.team.hasOperators()) return
  const link = await setupLink(app.store, app.siteUrl(), { email: null, role: 'owner' }, 'server start')
  print(`No operator yet: the first owner sets up the admin page within the hour at ${link}`)
}
