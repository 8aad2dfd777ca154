// Whether our mail reaches inboxes, for the team (docs/decisions/020-deliverability.md), under
// /admin/api: per campaign and per recipient domain, and the rolling complaint rate against the
// 0.3 % line. Figures only, no address: every role that reads the figures reads these.
import type { FastifyInstance } from 'fastify'
import type { Deliverability } from '../../contract/deliverability.js'

export async function deliverabilityRoutes(app: FastifyInstance) {
  app.get('/deliverability', { config: { permission: 'figures:read' } }, async (): Promise<Deliverability> =>
    app.store.deliverability.figures(),
  )
}
