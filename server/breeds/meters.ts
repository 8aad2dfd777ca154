// Where matches are ready (docs/breeds.md): each breed's confirmed, subscribed studs, dams and
// seekers per country against its target. Counted by the store at most once a minute (as the
// country meters are) and read from that count by the admin API (exact), /api/launch and the
// visitor's page (as public figures: banded, after each figure's secret offset, docs/public-figures.md).
import {
  breedTargetFor,
  type BreedMeter,
  type BreedTargets,
  isBreedReady,
  nearness,
  type PublicBreedCount,
} from '../../contract/breed-meters.js'
import type { CountryCode } from '../../contract/countries.js'
import { LAUNCH_CACHE_SECONDS } from '../../contract/growth.js'
import type { Locale } from '../../contract/locales.js'
import { isPubliclyReady, publicFigure } from '../../contract/public-figures.js'
import type { Profile, VisitorBreedMeter } from '../../contract/visitor.js'
import { figureKey, type Offsets } from '../growth/public-figures.js'
import { COUNTED_LIVE_BELOW } from '../store/shared/figure-cache.js'
import type { BreedCount, BreedStore } from '../store/types.js'
import { breedName } from './catalogue.js'
import { byCode } from '../../contract/order.js'

const MAX_AGE_MS = LAUNCH_CACHE_SECONDS * 1000

export interface Counted {
  counts: readonly BreedCount[]
  targets: BreedTargets
  /** When the store counted them (ISO 8601). */
  countedAt: string
}

export interface BreedMeters {
  /** The counts and targets, at most a minute old (the public's). */
  counted(): Promise<Counted>
  /** The counts and targets now (the team's: reading the kept counts costs little). */
  fresh(): Promise<Counted>
  /** Some breeds' counts in one country now, and the targets (a visitor's page: read by key, never the whole count). */
  of(country: string, breeds: readonly string[]): Promise<Pick<Counted, 'counts' | 'targets'>>
  /** Targets or mappings changed: the next read counts again. */
  changed(): void
}

export function createBreedMeters(store: BreedStore, now: () => number = Date.now): BreedMeters {
  let cached: { value: Counted; at: number } | undefined
  let counting: Promise<{ value: Counted; at: number }> | undefined
  let generation = 0
  async function count(): Promise<{ value: Counted; at: number }> {
    const at = now()
    const [counts, targets] = await Promise.all([store.counts(), store.targets()])
    return { value: { counts, targets, countedAt: new Date(at).toISOString() }, at }
  }
  const meters: BreedMeters = {
    counted: async () => {
      if (!cached || now() - cached.at >= MAX_AGE_MS) {
        const mine = generation
        counting ??= count().finally(() => (counting = undefined))
        const fresh = await counting
        if (mine === generation) cached = fresh
        return fresh.value
      }
      return cached.value
    },
    // The team's counts now, while the list is small; at scale the public's, at most a minute old
    // and saying when (reading every breed × country tally held SQLite's thread 60 ms at a million).
    fresh: async () => {
      const last = cached?.value
      if (last && last.counts.reduce((sum, row) => sum + row.profiles, 0) >= COUNTED_LIVE_BELOW) return meters.counted()
      const mine = generation
      const fresh = await count()
      if (mine === generation) cached = fresh
      return fresh.value
    },
    of: async (country, breeds) => {
      const [counts, targets] = await Promise.all([store.countsIn(country, breeds), store.targets()])
      return { counts, targets }
    },
    changed: () => {
      generation += 1
      cached = undefined
    },
  }
  return meters
}

/** Every breed with a counted profile, each country's count and all pooled; the nearest to ready first. */
/** Each count's meters, made once (the team's view asks again and again of the same count). */
const made = new WeakMap<object, BreedMeter[]>()

export function breedMetersOf(counted: Pick<Counted, 'counts' | 'targets'>): BreedMeter[] {
  let meters = made.get(counted)
  if (!meters) made.set(counted, (meters = countMeters(counted)))
  return meters
}

function countMeters({ counts, targets }: Pick<Counted, 'counts' | 'targets'>): BreedMeter[] {
  const byBreed = new Map<string, BreedCount[]>()
  for (const count of counts) {
    const rows = byBreed.get(count.breed)
    if (rows) rows.push(count)
    else byBreed.set(count.breed, [count])
  }
  const meters = [...byBreed].map(([id, rows]): BreedMeter => {
    const target = breedTargetFor(targets, id)
    const sum = (key: 'studs' | 'dams' | 'seekers' | 'profiles') => rows.reduce((total, row) => total + row[key], 0)
    const all = { studs: sum('studs'), dams: sum('dams'), seekers: sum('seekers'), profiles: sum('profiles') }
    const countries = rows
      .filter((row): row is BreedCount & { country: string } => row.country !== null)
      .map((row) => ({
        country: row.country as CountryCode,
        studs: row.studs,
        dams: row.dams,
        seekers: row.seekers,
        profiles: row.profiles,
        ready: isBreedReady(row, target),
      }))
      .sort((a, b) => nearness(b, target) - nearness(a, target) || b.profiles - a.profiles || byCode(a.country, b.country))
    return {
      id,
      name: breedName(id),
      target,
      ownTarget: Object.hasOwn(targets.breeds, id),
      all: { ...all, ready: isBreedReady(all, target) },
      countries,
    }
  })
  const best = (meter: BreedMeter) => Math.max(0, ...meter.countries.map((country) => nearness(country, meter.target)))
  return meters.sort((a, b) => best(b) - best(a) || b.all.profiles - a.all.profiles || byCode(a.id, b.id))
}

/**
 * /api/launch's breeds: each count as the public may see it (docs/public-figures.md), an entry
 * listed where one of them shows. Nothing else decides whether it is listed: a count of profiles
 * of its own would be one more edge to find, and one that holds the others.
 */
export function publicBreeds(counts: readonly BreedCount[], offsets: Offsets): PublicBreedCount[] {
  return counts
    .flatMap((count): PublicBreedCount[] => {
      const country = count.country
      if (country === null) return []
      const shown = (side: 'studs' | 'dams' | 'seekers') => publicFigure(count[side], offsets(figureKey.breed(count.breed, country, side)))
      const entry = {
        id: count.breed,
        country: country as CountryCode,
        studs: shown('studs'),
        dams: shown('dams'),
        seekers: shown('seekers'),
      }
      return entry.studs === null && entry.dams === null && entry.seekers === null ? [] : [entry]
    })
    .sort((a, b) => byCode(a.id, b.id) || byCode(a.country, b.country))
}

/** The breeds of the catalogue a profile names, each once. */
export const knownBreedsOf = (profile: Profile): string[] => [
  ...new Set(profile.breeds.flatMap((entry) => (entry.breed ? [entry.breed] : []))),
]

/**
 * One breed's meter in one country, as the public sees it: the rule of /api/launch, on the count
 * now (`BreedMeters.of`; docs/public-figures.md: a visitor's page changes at each load). The
 * visitor's page and a partner's embed show it alike.
 */
export function publicBreedMeter(
  { counts, targets }: Pick<Counted, 'counts' | 'targets'>,
  breed: string,
  country: string,
  locale: Locale,
  offsets: Offsets,
): VisitorBreedMeter {
  const count = counts.find((row) => row.breed === breed && row.country === country)
  const target = breedTargetFor(targets, breed)
  const side = (name: 'studs' | 'dams') => {
    const have = count?.[name] ?? 0
    return { count: have, offset: offsets(figureKey.breed(breed, country, name)), target: target[name] }
  }
  const studs = side('studs')
  const dams = side('dams')
  return {
    breed,
    name: breedName(breed, locale),
    studs: publicFigure(studs.count, studs.offset),
    dams: publicFigure(dams.count, dams.offset),
    target,
    ready: isPubliclyReady([studs, dams]),
  }
}

/** The meter of each known breed of a profile in its country, as the public sees it (publicBreedMeter). */
export function visitorBreedMeters(
  counted: Pick<Counted, 'counts' | 'targets'>,
  profile: Profile,
  locale: Locale,
  offsets: Offsets,
): VisitorBreedMeter[] {
  const country = profile.country
  if (!country) return []
  return knownBreedsOf(profile).map((breed) => publicBreedMeter(counted, breed, country, locale, offsets))
}
