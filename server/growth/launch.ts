// Each country's launch meter for the public (GET /api/launch) and the visitor's page: confirmed,
// subscribed breeders and owners against the team's targets (docs/decisions/015-growth.md).
import type { FastifyInstance } from 'fastify'
import { type CountryMeter, LAUNCH_CACHE_SECONDS, LAUNCH_COUNTRY_MIN, type LaunchAnswer } from '../../contract/growth.js'
import { LAUNCH_PATH } from '../../contract/paths.js'
import { metersOf } from '../store/growth/launch.js'
import { type BreedMeters, publicBreeds } from '../breeds/meters.js'
import type { GrowthStore } from '../store/types.js'

const MAX_AGE_MS = LAUNCH_CACHE_SECONDS * 1000

export interface LaunchMeters {
  /** The public answer, at most LAUNCH_CACHE_SECONDS old, and how old it is. */
  answer(): Promise<{ answer: LaunchAnswer; ageMs: number }>
  /** One country's meter, counted now (the visitor's page: their own confirmation shows at once). */
  meter(country: string): Promise<CountryMeter>
  /** The targets changed: the next answer is counted again. */
  changed(): void
}

export function createLaunchMeters(growth: GrowthStore, breeds: BreedMeters, now: () => number = Date.now): LaunchMeters {
  let cached: { answer: LaunchAnswer; at: number } | undefined
  let counting: Promise<{ answer: LaunchAnswer; at: number }> | undefined
  async function count() {
    const [counts, targets, counted] = await Promise.all([growth.countryCounts(), growth.launchTargets(), breeds.counted()])
    // Fewer confirmed sign-ups than this would point at people: those countries are left out.
    const shown = counts.filter((c) => c.confirmed >= LAUNCH_COUNTRY_MIN)
    return { answer: { countries: metersOf(shown, targets), breeds: publicBreeds(counted.counts) }, at: now() }
  }
  return {
    answer: async () => {
      if (!cached || now() - cached.at >= MAX_AGE_MS) {
        counting ??= count().finally(() => (counting = undefined))
        cached = await counting
      }
      return { answer: cached.answer, ageMs: now() - cached.at }
    },
    meter: async (country) => {
      const [counts, targets] = await Promise.all([growth.countryCounts(country), growth.launchTargets()])
      const count = counts[0] ?? { country, confirmed: 0, breeders: 0, owners: 0 }
      const [meter] = metersOf([count], targets)
      if (!meter) throw new Error(`no meter for ${country}`)
      return meter
    },
    changed: () => {
      cached = undefined
    },
  }
}

export async function launchRoutes(app: FastifyInstance) {
  app.get(LAUNCH_PATH, async (_request, reply) => {
    const { answer, ageMs } = await app.launch.answer()
    // A cache on the way may keep it only for what is left of its minute here.
    const seconds = Math.max(0, Math.floor((MAX_AGE_MS - ageMs) / 1000))
    return reply.header('cache-control', `public, max-age=${seconds}`).send(answer)
  })
}
