// Whether our mail reaches inboxes, for the team (docs/decisions/020-deliverability.md), under
// /admin/api: per campaign and per recipient domain, and the rolling complaint rate against the
// 0.3 % line. Figures only, no address: every role that reads the figures reads these, but the
// recipient domains are named only to those who may read addresses (in a small deployment a
// domain can be one family's).
import type { FastifyInstance } from 'fastify'
import type { Deliverability } from '../../contract/deliverability.js'
import { can } from '../../contract/team.js'
import { domainsPooled } from '../store/deliverability/figures.js'
import { callerOf } from '../team/auth.js'

export async function deliverabilityRoutes(app: FastifyInstance) {
  app.get('/deliverability', { config: { permission: 'figures:read' } }, async (request): Promise<Deliverability> => {
    const figures = await app.store.deliverability.figures()
    return can(callerOf(request).role, 'signups:read') ? figures : { ...figures, domains: domainsPooled(figures.domains) }
  })
}
