// The breeds for the team (docs/breeds.md), under /admin/api: the breed × country meters (JSON and
// CSV), their targets, and the typed names the catalogue missed, which an editor maps to a breed.
import type { FastifyInstance } from 'fastify'
import {
  type BreedMeter,
  type BreedMetersAnswer,
  type BreedTargets,
  checkBreedTargets,
  nearness,
  SEGMENT_SIDES,
  type UnmatchedAnswer,
} from '../../contract/breed-meters.js'
import { isCountryCode } from '../../contract/countries.js'
import type { Locale } from '../../contract/locales.js'
import { MAX_BREED_LENGTH } from '../../contract/visitor.js'
import { HttpError } from '../http/errors.js'
import { csvCell } from '../operators/csv.js'
import { auditOf, callerOf, localeOf } from '../team/auth.js'
import { breedName, isBreedId, readBreedName } from './catalogue.js'
import { breedMetersOf } from './meters.js'
import { byCode } from '../../contract/order.js'

/** The most unmatched names listed. */
const UNMATCHED_LIMIT = 500

interface Filter {
  breed?: string
  country?: string
  side?: string
}

const filterSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    breed: { type: 'string', maxLength: 80 },
    country: { type: 'string', maxLength: 2 },
    side: { type: 'string', enum: [...SEGMENT_SIDES] },
  },
} as const

/**
 * The meters a filter keeps (one breed, one country, or the countries with anyone on one side), each
 * breed named in the language of the one who asked.
 */
function filtered(meters: BreedMeter[], filter: Filter, locale: Locale): BreedMeter[] {
  if (filter.breed !== undefined && !isBreedId(filter.breed))
    throw new HttpError(400, 'invalid_breed', `breed: not a breed of the catalogue, got ${JSON.stringify(filter.breed)}`)
  const country = filter.country?.toUpperCase()
  if (country !== undefined && !isCountryCode(country))
    throw new HttpError(400, 'invalid_country', `country: expected ISO 3166-1 alpha-2, got ${JSON.stringify(filter.country)}`)
  const side = filter.side === 'stud' ? 'studs' : filter.side === 'dam' ? 'dams' : filter.side === 'seeker' ? 'seekers' : undefined
  return (
    meters
      .filter((meter) => filter.breed === undefined || meter.id === filter.breed)
      .map((meter) => ({
        ...meter,
        name: breedName(meter.id, locale),
        countries: meter.countries.filter((row) => (country === undefined || row.country === country) && (!side || row[side] > 0)),
      }))
      .filter((meter) => (country === undefined && !side) || meter.countries.length > 0)
      // The nearest to ready first among the rows kept (a breed's best country may be filtered out).
      .map((meter) => ({ meter, best: Math.max(0, ...meter.countries.map((row) => nearness(row, meter.target))) }))
      .sort((a, b) => b.best - a.best || b.meter.all.profiles - a.meter.all.profiles || byCode(a.meter.id, b.meter.id))
      .map(({ meter }) => meter)
  )
}

const CSV_COLUMNS = ['breed', 'name', 'country', 'studs', 'dams', 'seekers', 'profiles', 'target_studs', 'target_dams', 'ready'] as const

export async function breedRoutes(app: FastifyInstance) {
  app.get(
    '/breeds',
    { config: { permission: 'figures:read' }, schema: { querystring: filterSchema } },
    async (request): Promise<BreedMetersAnswer & { countedAt: string }> => {
      const counted = await app.breedMeters.fresh()
      return {
        breeds: filtered(breedMetersOf(counted), request.query as Filter, localeOf(callerOf(request))),
        countedAt: counted.countedAt,
      }
    },
  )

  app.get('/breeds.csv', { config: { permission: 'figures:read' }, schema: { querystring: filterSchema } }, async (request, reply) => {
    const counted = await app.breedMeters.fresh()
    const lines = [CSV_COLUMNS.join(',')]
    for (const meter of filtered(breedMetersOf(counted), request.query as Filter, localeOf(callerOf(request)))) {
      const line = (country: string, row: { studs: number; dams: number; seekers: number; profiles: number; ready: boolean }) =>
        [
          meter.id,
          meter.name,
          country,
          row.studs,
          row.dams,
          row.seekers,
          row.profiles,
          meter.target.studs,
          meter.target.dams,
          row.ready ? 'yes' : 'no',
        ]
          .map(csvCell)
          .join(',')
      for (const row of meter.countries) lines.push(line(row.country, row))
      // Every country pooled, unless one country was asked for (the pool counts the others too).
      if ((request.query as Filter).country === undefined) lines.push(line('all', meter.all))
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="kennect-breeds-${counted.countedAt.slice(0, 10)}.csv"`)
      .send(`${lines.join('\r\n')}\r\n`)
  })

  app.get('/breeds/targets', { config: { permission: 'figures:read' } }, async (): Promise<BreedTargets> => app.store.breeds.targets())

  app.put('/breeds/targets', { config: { permission: 'settings:write' } }, async (request): Promise<BreedTargets> => {
    const checked = checkBreedTargets(request.body, isBreedId)
    if (!checked.ok) throw new HttpError(400, 'invalid_targets', checked.problems.join('; '))
    const breeds = Object.keys(checked.targets.breeds).length
    await app.store.breeds.setTargets(checked.targets, auditOf(request, 'settings changed', 'breed targets', { breeds }))
    app.breedMeters.changed()
    app.launch.changed()
    request.log.info({ breeds }, 'admin: breed targets set')
    return checked.targets
  })

  app.get('/breeds/unmatched', { config: { permission: 'figures:read' } }, async (): Promise<UnmatchedAnswer> => ({
    unmatched: await app.store.breeds.unmatched(UNMATCHED_LIMIT),
  }))

  app.post(
    '/breeds/unmatched',
    {
      config: { permission: 'breeds:map' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'breed'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: MAX_BREED_LENGTH },
            // A breed's id, or its name in any language (as the admin's field offers them).
            breed: { type: 'string', minLength: 1, maxLength: MAX_BREED_LENGTH },
          },
        },
      },
    },
    async (request): Promise<{ name: string; breed: string; mapped: number }> => {
      const { name, breed: given } = request.body as { name: string; breed: string }
      const breed = isBreedId(given) ? given : readBreedName(given).breed
      if (breed === null)
        throw new HttpError(400, 'invalid_breed', `breed: not a breed of the catalogue (an id or a name), got ${JSON.stringify(given)}`)
      const read = readBreedName(name)
      if (read.key === '') throw new HttpError(400, 'invalid_name', 'name: has no letters or digits')
      if (read.breed !== null)
        throw new HttpError(
          409,
          'name_known',
          `name: the catalogue reads ${JSON.stringify(name)} as ${read.breed} (${breedName(read.breed)})`,
        )
      const mapped = await app.store.breeds.map(read.key, breed, auditOf(request, 'breed mapped', breed, { name }))
      app.breedMeters.changed()
      app.launch.changed()
      request.log.info({ breed, mapped }, 'admin: breed name mapped')
      return { name, breed, mapped }
    },
  )
}
