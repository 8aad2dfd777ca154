// The launch targets and the funnel for the team (docs/decisions/015-growth.md), under /admin/api
// and its token. A bad input answers 400 naming the field, and changes nothing.
import type { FastifyInstance } from 'fastify'
import {
  checkLaunchTargets,
  type Funnel,
  type FunnelHandOff,
  type HandOffTally,
  type LaunchTargets,
  MAX_FUNNEL_DAYS,
} from '../../contract/growth.js'
import type { Locale } from '../../contract/locales.js'
import { HttpError } from '../http/errors.js'
import { auditOf, callerOf, localeOf } from '../team/auth.js'
import { breedName, isBreedId } from '../breeds/catalogue.js'

/** How many days the funnel shows when not told. */
const DEFAULT_FUNNEL_DAYS = 30
const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A UTC day (YYYY-MM-DD) that exists, or a 400 naming the parameter. */
export function readDay(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined
  const time = Date.parse(`${value}T00:00:00Z`)
  if (!DAY.test(value) || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) {
    throw new HttpError(400, 'invalid_date', `${field}: expected a day such as 2026-11-01, got ${JSON.stringify(value)}`)
  }
  return value
}

/** The range the funnel covers: `until` defaults to today, `since` to DEFAULT_FUNNEL_DAYS before it. */
/** The hand-off's tallies with each breed named in `locale` (the caller's; the command line's English). */
export const namedHandOff = (tally: HandOffTally, locale: Locale): FunnelHandOff => ({
  ...tally,
  breeds: tally.breeds.map((row) => ({ ...row, name: breedName(row.breed, locale) })),
})

export function funnelRange(since: string | undefined, until: string | undefined): { since: string; until: string } {
  const last = readDay(until, 'until') ?? new Date().toISOString().slice(0, 10)
  const first =
    readDay(since, 'since') ?? new Date(Date.parse(`${last}T00:00:00Z`) - (DEFAULT_FUNNEL_DAYS - 1) * 86_400_000).toISOString().slice(0, 10)
  if (first > last) throw new HttpError(400, 'invalid_range', 'until: must not come before since')
  const days = (Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000 + 1
  if (days > MAX_FUNNEL_DAYS) throw new HttpError(400, 'invalid_range', `since: at most ${MAX_FUNNEL_DAYS} days before until`)
  return { since: first, until: last }
}

export async function growthRoutes(app: FastifyInstance) {
  app.get('/launch-targets', { config: { permission: 'figures:read' } }, async (): Promise<LaunchTargets> =>
    app.store.growth.launchTargets(),
  )

  app.put('/launch-targets', { config: { permission: 'settings:write' } }, async (request): Promise<LaunchTargets> => {
    const checked = checkLaunchTargets(request.body)
    if (!checked.ok) throw new HttpError(400, 'invalid_targets', checked.problems.join('; '))
    await app.store.growth.setLaunchTargets(
      checked.targets,
      auditOf(request, 'settings changed', 'launch targets', { countries: Object.keys(checked.targets.countries).length }),
    )
    app.launch.changed()
    request.log.info({ countries: Object.keys(checked.targets.countries).length }, 'admin: launch targets set')
    return checked.targets
  })

  app.get(
    '/funnel',
    {
      config: { permission: 'figures:read' },
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            since: { type: 'string', maxLength: 10 },
            until: { type: 'string', maxLength: 10 },
            breed: { type: 'string', maxLength: 80 },
          },
        },
      },
    },
    async (request): Promise<Funnel> => {
      const query = request.query as { since?: string; until?: string; breed?: string }
      const { since, until } = funnelRange(query.since, query.until)
      if (query.breed !== undefined && !isBreedId(query.breed))
        throw new HttpError(400, 'invalid_breed', `breed: not a breed of the catalogue, got ${JSON.stringify(query.breed)}`)
      await app.views.flush() // this very second's views are in the answer
      const [funnel, handOff] = await Promise.all([
        app.store.growth.funnel(since, until, query.breed ?? null),
        app.store.app.handOff(query.breed ?? null),
      ])
      return { ...funnel, handOff: namedHandOff(handOff, localeOf(callerOf(request))) }
    },
  )
}
