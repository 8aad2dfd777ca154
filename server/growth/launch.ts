// Each country's launch meter for the public (GET /api/launch) and the visitor's page: confirmed,
// subscribed breeders and owners against the team's targets (docs/decisions/015-growth.md), shown
// as public figures: banded, after each figure's secret offset (docs/public-figures.md). The team
// reads exact meters elsewhere (the segments' answer).
import type { FastifyInstance } from 'fastify'
import { LAUNCH_CACHE_SECONDS, type LaunchAnswer, type LaunchTargets, targetFor } from '../../contract/growth.js'
import type { CountryCode } from '../../contract/countries.js'
import { LAUNCH_PATH } from '../../contract/paths.js'
import { isPubliclyReady, type PublicCountryMeter, publicFigure } from '../../contract/public-figures.js'
import { type BreedMeters, publicBreeds } from '../breeds/meters.js'
import type { CountryCount, GrowthStore, SettingsStore } from '../store/types.js'
import { createPublicFigures, figureKey, type Offsets, type PublicFigures } from './public-figures.js'
import { byCode } from '../../contract/order.js'

const MAX_AGE_MS = LAUNCH_CACHE_SECONDS * 1000

export interface LaunchMeters {
  /** The public answer, at most LAUNCH_CACHE_SECONDS old, and how old it is. */
  answer(): Promise<{ answer: LaunchAnswer; ageMs: number }>
  /** One country's meter as the public sees it, counted now (the visitor's page: their own confirmation counts at once). */
  meter(country: string): Promise<PublicCountryMeter>
  /** The targets changed: the next answer is counted again. */
  changed(): void
  /** The public figures' offsets, for every other public figure (the visitor's breeds, the landing page's total). */
  readonly figures: PublicFigures
}

/** One country's meter as the public may see it. */
export function publicMeterOf(count: CountryCount, targets: LaunchTargets, offsets: Offsets): PublicCountryMeter {
  const target = targetFor(targets, count.country)
  const side = (role: 'breeders' | 'owners') => ({
    count: count[role],
    offset: offsets(figureKey.country(count.country, role)),
    target: target[role],
  })
  const breeders = side('breeders')
  const owners = side('owners')
  return {
    country: count.country as CountryCode,
    breeders: publicFigure(breeders.count, breeders.offset),
    owners: publicFigure(owners.count, owners.offset),
    target,
    ready: isPubliclyReady([breeders, owners]),
  }
}

/**
 * The countries where a figure shows, the readiest first (by the figures shown, never the exact
 * counts: an order would tell them apart within a band).
 */
export function publicMeters(counts: readonly CountryCount[], targets: LaunchTargets, offsets: Offsets): PublicCountryMeter[] {
  const fill = (have: number | null, want: number) => (want === 0 ? 1 : Math.min(1, (have ?? 0) / want))
  const nearness = (meter: PublicCountryMeter) =>
    Math.min(fill(meter.breeders, meter.target.breeders), fill(meter.owners, meter.target.owners))
  return counts
    .map((count) => publicMeterOf(count, targets, offsets))
    .filter((meter) => meter.breeders !== null || meter.owners !== null)
    .sort((a, b) => Number(b.ready) - Number(a.ready) || nearness(b) - nearness(a) || byCode(a.country, b.country))
}

export function createLaunchMeters(
  growth: GrowthStore,
  breeds: BreedMeters,
  settings: SettingsStore,
  now: () => number = Date.now,
): LaunchMeters {
  const figures = createPublicFigures(settings, now)
  let cached: { answer: LaunchAnswer; at: number } | undefined
  let counting: Promise<{ answer: LaunchAnswer; at: number }> | undefined
  async function count() {
    const [counts, targets, counted, offsets] = await Promise.all([
      growth.countryCounts(),
      growth.launchTargets(),
      breeds.counted(),
      figures.offsets(),
    ])
    return { answer: { countries: publicMeters(counts, targets, offsets), breeds: publicBreeds(counted.counts, offsets) }, at: now() }
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
      const [counts, targets, offsets] = await Promise.all([growth.countryCounts(country), growth.launchTargets(), figures.offsets()])
      return publicMeterOf(counts[0] ?? { country, confirmed: 0, breeders: 0, owners: 0 }, targets, offsets)
    },
    changed: () => {
      cached = undefined
    },
    figures,
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
