// What both stores share of the breeds: the targets kept as one setting, and which breed × country
// pairs are ready.
import {
  breedTargetFor,
  type BreedTargets,
  checkBreedTargets,
  DEFAULT_BREED_TARGETS,
  isBreedReady,
} from '../../../contract/breed-meters.js'
import type { Profile, ProfileBreed } from '../../../contract/visitor.js'
import { isBreedId } from '../../breeds/catalogue.js'
import type { BreedCount } from '../types.js'

/** The settings row that holds the breed targets. */
export const BREED_TARGETS_KEY = 'breed_targets'

/** The stored targets, or the defaults when none are set (or the row was edited into something else). */
export function storedBreedTargets(value: unknown): BreedTargets {
  if (value === undefined || value === null) return DEFAULT_BREED_TARGETS
  const checked = checkBreedTargets(typeof value === 'string' ? JSON.parse(value) : value, isBreedId)
  return checked.ok ? checked.targets : DEFAULT_BREED_TARGETS
}

/** The ready breed × country pairs as `breed|country` (what a segment's readyBreeds matches). */
export const readyPairs = (counts: readonly BreedCount[], targets: BreedTargets): string[] =>
  counts
    .filter((count) => count.country !== null && isBreedReady(count, breedTargetFor(targets, count.breed)))
    .map((count) => `${count.breed}|${count.country}`)

/** A stored breed row as the profile has it. */
export interface BreedRow {
  name: string
  breed: string | null
  side: ProfileBreed['side']
  tests: ProfileBreed['tests']
  other_tests: string | null
}

export const toProfileBreed = (row: BreedRow): ProfileBreed => ({
  name: row.name,
  breed: row.breed,
  side: row.side,
  tests: row.tests,
  otherTests: row.other_tests,
})

/** The ids and sides of a profile's breeds, as sign-up events carry them. */
export const breedSides = (breeds: Profile['breeds']) => breeds.map(({ breed, side }) => ({ breed, side }))

/** A breed named twice (two spellings of one breed) counts once: the later entry keeps its name, not the breed. */
export function onceEach<T extends { breed: string | null }>(entries: readonly T[]): T[] {
  const seen = new Set<string>()
  return entries.map((entry) => {
    if (entry.breed === null) return entry
    if (seen.has(entry.breed)) return { ...entry, breed: null }
    seen.add(entry.breed)
    return entry
  })
}
