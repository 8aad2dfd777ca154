// What both stores share of the breeds: the targets kept as one setting, which breed × country
// pairs are ready, the counts as the tallies keep them, and when a save changes a profile's event.
import {
  breedTargetFor,
  type BreedTargets,
  checkBreedTargets,
  DEFAULT_BREED_TARGETS,
  isBreedReady,
} from '../../../contract/breed-meters.js'
import type { ProfileBreed } from '../../../contract/visitor.js'
import { isBreedId } from '../../breeds/catalogue.js'
import { byKey, type TallyRow } from '../tallies/shared.js'
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

/**
 * Whether a save changes what a profile event says of its breeds (each name, and its breed and
 * side, in order): only then is the event sent for them.
 */
export function profileChanged(before: readonly ProfileBreed[], after: readonly Pick<ProfileBreed, 'name' | 'breed' | 'side'>[]): boolean {
  const said = (breeds: readonly Pick<ProfileBreed, 'name' | 'breed' | 'side'>[]) =>
    JSON.stringify(breeds.map(({ name, breed, side }) => [name, breed, side]))
  return said(before) !== said(after)
}

/** The tally key of a breed in a country ('' when the country is not said). */
export const breedTallyKey = (breed: string, country: string | null) => `${breed}|${country ?? ''}`

type BreedFigures = Pick<BreedCount, 'studs' | 'dams' | 'seekers' | 'profiles'>

/** One pair's count, from its tally key. */
function breedCountOf(key: string, counts: BreedFigures): BreedCount {
  const bar = key.lastIndexOf('|')
  const country = key.slice(bar + 1)
  return { breed: key.slice(0, bar), country: country === '' ? null : country, ...counts }
}

/** The breed tallies (kind 'breed', keyed `breed|country`) as the meters read them: every pair with a profile. */
export function breedCounts(rows: readonly TallyRow[]): BreedCount[] {
  return [...byKey(rows, ['studs', 'dams', 'seekers', 'profiles'] as const)]
    .filter(([, counts]) => counts.profiles > 0)
    .map(([key, counts]) => breedCountOf(key, counts))
}

/**
 * Every pair's count as one JSON text, `[[key, studs, dams, seekers, profiles], …]`, the tallies'
 * fields added up by SQLite: at a million sign-ups 8,800 pairs in 26,000 tally rows. Read on the
 * reader's thread, one string crosses to the server's (parsed in 3 ms), where the rows themselves
 * took 90 to clone.
 */
export const READ_BREED_COUNTS_JSON = `SELECT json_group_array(json_array(key, studs, dams, seekers, profiles)) AS counts FROM (
    SELECT key,
      sum(CASE field WHEN 'studs' THEN n ELSE 0 END) AS studs,
      sum(CASE field WHEN 'dams' THEN n ELSE 0 END) AS dams,
      sum(CASE field WHEN 'seekers' THEN n ELSE 0 END) AS seekers,
      sum(CASE field WHEN 'profiles' THEN n ELSE 0 END) AS profiles
    FROM tallies WHERE kind = 'breed' GROUP BY key HAVING profiles > 0
  )`

/** The answer of READ_BREED_COUNTS_JSON as counts. */
export function breedCountsOfJson(text: string): BreedCount[] {
  return (JSON.parse(text) as [string, number, number, number, number][]).map(([key, studs, dams, seekers, profiles]) =>
    breedCountOf(key, { studs, dams, seekers, profiles }),
  )
}
