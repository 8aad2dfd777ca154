// Where matches are ready (docs/breeds.md): each breed's studs, dams and seekers per country against
// the team's targets, for the admin API, the public /api/launch and the visitor's page. Types,
// constants and pure checks; this folder imports nothing but itself.
import type { CountryCode } from './countries.js'

/** How many studs and dams of a breed a country needs before the app opens there for it. */
export interface BreedTarget {
  studs: number
  dams: number
}

/** GET and PUT /admin/api/breeds/targets: a default, and the breeds that differ from it. */
export interface BreedTargets {
  default: BreedTarget
  breeds: Record<string, BreedTarget>
}

export const DEFAULT_BREED_TARGETS: BreedTargets = { default: { studs: 20, dams: 20 }, breeds: {} }
export const MAX_BREED_TARGET = 100_000

export const breedTargetFor = (targets: BreedTargets, breed: string): BreedTarget => targets.breeds[breed] ?? targets.default

/** Both sides at or above the target. */
export const isBreedReady = (count: { studs: number; dams: number }, target: BreedTarget): boolean =>
  count.studs >= target.studs && count.dams >= target.dams

/** How near a count is to its target, 0 to 1: the fuller-behind side's fill. */
export function nearness(count: { studs: number; dams: number }, target: BreedTarget): number {
  const fill = (have: number, want: number) => (want === 0 ? 1 : Math.min(1, have / want))
  return Math.min(fill(count.studs, target.studs), fill(count.dams, target.dams))
}

export type BreedTargetsCheck = { ok: true; targets: BreedTargets } | { ok: false; problems: string[] }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The targets as sent, or every problem, each naming its field (`breeds.pug.dams: …`). `known`
 * says whether an id is the catalogue's.
 */
export function checkBreedTargets(input: unknown, known: (id: string) => boolean): BreedTargetsCheck {
  const problems: string[] = []
  const target = (value: unknown, field: string): BreedTarget | undefined => {
    if (!isObject(value)) {
      problems.push(`${field}: expected { "studs": N, "dams": N }`)
      return undefined
    }
    for (const key of Object.keys(value)) if (key !== 'studs' && key !== 'dams') problems.push(`${field}.${key}: unknown field`)
    const count = (key: 'studs' | 'dams') => {
      const n = value[key]
      if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_BREED_TARGET) return n
      problems.push(`${field}.${key}: expected a whole number from 0 to 100,000, got ${JSON.stringify(n ?? null)}`)
      return 0
    }
    return { studs: count('studs'), dams: count('dams') }
  }
  if (!isObject(input)) return { ok: false, problems: ['body: expected { "default": …, "breeds": … }'] }
  for (const key of Object.keys(input)) if (key !== 'default' && key !== 'breeds') problems.push(`${key}: unknown field`)
  const fallback = target(input.default, 'default')
  const breeds: Record<string, BreedTarget> = {}
  if (input.breeds !== undefined && !isObject(input.breeds)) problems.push('breeds: expected an object keyed by breed id')
  else {
    for (const [id, value] of Object.entries(input.breeds ?? {})) {
      if (!known(id)) {
        problems.push(`breeds.${id}: not a breed of the catalogue (ids such as labrador-retriever)`)
        continue
      }
      const checked = target(value, `breeds.${id}`)
      if (checked) breeds[id] = checked
    }
  }
  if (problems.length > 0 || !fallback) return { ok: false, problems }
  return { ok: true, targets: { default: fallback, breeds } }
}

/** Confirmed, subscribed profiles of one breed in one country, by side. */
export interface BreedCountryCount {
  country: CountryCode
  studs: number
  dams: number
  seekers: number
  /** Profiles that name the breed here, whatever their side. */
  profiles: number
  ready: boolean
}

/** One breed in GET /admin/api/breeds. */
export interface BreedMeter {
  id: string
  name: string
  target: BreedTarget
  /** The target is the breed's own (set for it), not the default every other breed has. */
  ownTarget: boolean
  /** Every country pooled, and the profiles that name no country: a rare breed's market crosses borders. */
  all: { studs: number; dams: number; seekers: number; profiles: number; ready: boolean }
  countries: BreedCountryCount[]
}

/** GET /admin/api/breeds, the breeds with any counted profile, the nearest to ready first. */
export interface BreedMetersAnswer {
  breeds: BreedMeter[]
}

/** GET /admin/api/breeds/unmatched: typed names no breed has, the most typed first. */
export interface UnmatchedAnswer {
  unmatched: { name: string; count: number }[]
}

/** The sides a campaign may choose ("both" counts on stud and on dam). */
export const SEGMENT_SIDES = ['stud', 'dam', 'seeker'] as const
export type SegmentSide = (typeof SEGMENT_SIDES)[number]

/**
 * One entry of /api/launch's `breeds`: listed where one of its counts shows. Each is the lower
 * bound of its band (`20`: 20 or more) once its figure's secret offset is taken off
 * (contract/public-figures.ts), or null: too few to show yet.
 */
export interface PublicBreedCount {
  id: string
  country: CountryCode
  studs: number | null
  dams: number | null
  seekers: number | null
}
