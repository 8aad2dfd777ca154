// A campaign's segment as both stores query it: absent and empty filters are null (no filter),
// breeds read by the catalogue and the operators' mappings (ids, and the keys of names neither
// knows), moments as ISO 8601 in UTC.
import type { Segment } from '../../../contract/campaigns.js'
import { isBreedId, readBreedName } from '../../breeds/catalogue.js'

export interface SegmentFilter {
  includeUnconfirmed: boolean
  roles: string[] | null
  countries: string[] | null
  /** The breeds' ids; null: no breed filter. */
  breedIds: string[] | null
  /** With breedIds, the keys of the names given that no breed has (matched as typed). */
  breedKeys: string[] | null
  /** The stored sides that match the segment's (`both` is a stud and a dam). */
  sides: string[] | null
  since: string | null
  until: string | null
  sources: string[] | null
  invitedAtLeast: number | null
  /** The ready countries, when the segment asks for them (the store works them out as it counts or sends). */
  readyCountries: string[] | null
  /** The ready breed × country pairs (`breed|country`), when the segment asks for them. */
  readyPairs: string[] | null
  locales: string[] | null
  /** The phones; `other` takes every sign-up whose phone is not known too (as {{store_url}} does). */
  platforms: string[] | null
  /** Whether the app has taken the profile (app_links.claimed_at set); null: either. */
  claimed: boolean | null
  /** The partners' ids (as text: one that is no partner's matches nobody); null: any way in. */
  partners: string[] | null
  /**
   * Only people an import brought in, confirmed since or not (contract/imports.ts). Without it, an
   * imported person who never confirmed is nobody's recipient, whatever includeUnconfirmed says.
   */
  imported: boolean
}

/** What the store works out as it counts or sends, inside the same transaction, for the segment to mean it. */
export interface SegmentFacts {
  /** The countries whose launch meters are full, when the segment asks for readyCountries. */
  readyCountries: readonly string[]
  /** The full breed × country pairs (`breed|country`), when it asks for readyBreeds. */
  readyPairs: readonly string[]
  /** The operators' mappings (breed_mappings) of the names in mappedKeysOf(segment): key to breed id. */
  mappings: ReadonlyMap<string, string>
}

const list = (values: readonly string[] | undefined) => (values && values.length > 0 ? [...values] : null)
const moment = (value: string | undefined) => (value ? new Date(value).toISOString() : null)

/** A breed name as the catalogue reads it: the breed's id, or the key of a name it does not know. */
function readByCatalogue(value: string): { breed: string } | { key: string } {
  if (isBreedId(value)) return { breed: value }
  const { key, breed } = readBreedName(value)
  return breed ? { breed } : { key }
}

/** The keys of the segment's breed names the catalogue does not read: those an operator may have mapped. */
export function mappedKeysOf(segment: Segment): string[] {
  const keys = new Set<string>()
  for (const value of segment.breeds ?? []) {
    const read = readByCatalogue(value)
    if ('key' in read) keys.add(read.key)
  }
  return [...keys]
}

/**
 * The segment's breeds, each name read as every view reads it: the catalogue first (an id, or a name
 * in any language), then the operators' mappings of the names it missed, so a mapped name selects
 * its breed's people, whoever typed what; a name neither knows keeps its key, matched as typed.
 */
function readBreeds(given: readonly string[] | undefined, mappings: ReadonlyMap<string, string>): { ids: string[]; keys: string[] } | null {
  if (!given || given.length === 0) return null
  const ids = new Set<string>()
  const keys = new Set<string>()
  for (const value of given) {
    const read = readByCatalogue(value)
    const breed = 'breed' in read ? read.breed : mappings.get(read.key)
    if (breed) ids.add(breed)
    else if ('key' in read) keys.add(read.key)
  }
  return { ids: [...ids], keys: [...keys] }
}

/** The segment as the stores' WHERE clause takes it, with what the store worked out for it (`facts`). */
export function segmentFilter(segment: Segment, facts: SegmentFacts): SegmentFilter {
  const breeds = readBreeds(segment.breeds, facts.mappings)
  const sides = segment.sides?.length
    ? [...new Set(segment.sides.flatMap((side) => (side === 'seeker' ? ['seeker'] : [side, 'both'])))]
    : null
  return {
    includeUnconfirmed: segment.includeUnconfirmed === true,
    roles: list(segment.roles),
    countries: list(segment.countries),
    breedIds: breeds ? breeds.ids : null,
    breedKeys: breeds ? breeds.keys : null,
    sides,
    since: moment(segment.since),
    until: moment(segment.until),
    sources: list(segment.sources),
    invitedAtLeast: segment.invitedAtLeast !== undefined && segment.invitedAtLeast > 0 ? segment.invitedAtLeast : null,
    // Asked for and none ready: a list that matches nobody (an empty list would mean no filter).
    readyCountries: segment.readyCountries ? [...facts.readyCountries, ''] : null,
    readyPairs: segment.readyBreeds ? [...facts.readyPairs, ''] : null,
    locales: list(segment.locales),
    platforms: list(segment.platforms),
    claimed: segment.claimed ?? null,
    partners: list(segment.partners),
    imported: segment.imported === true,
  }
}
