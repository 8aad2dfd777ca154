// A campaign's segment as both stores query it: absent and empty filters are null (no filter),
// breeds read by the catalogue (ids, and the keys of names it does not know), moments as ISO 8601 in UTC.
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
}

const list = (values: readonly string[] | undefined) => (values && values.length > 0 ? [...values] : null)
const moment = (value: string | undefined) => (value ? new Date(value).toISOString() : null)

/** A breed as a segment names it: its id, else what the catalogue (or nothing) makes of the name. */
function readBreeds(given: readonly string[] | undefined): { ids: string[]; keys: string[] } | null {
  if (!given || given.length === 0) return null
  const ids = new Set<string>()
  const keys = new Set<string>()
  for (const value of given) {
    if (isBreedId(value)) ids.add(value)
    else {
      const { key, breed } = readBreedName(value)
      if (breed) ids.add(breed)
      else keys.add(key)
    }
  }
  return { ids: [...ids], keys: [...keys] }
}

/** `ready`: the countries whose meters are full now; `readyBreeds`: the full breed × country pairs; each if the segment asks. */
export function segmentFilter(segment: Segment, ready: readonly string[] = [], readyBreeds: readonly string[] = []): SegmentFilter {
  const breeds = readBreeds(segment.breeds)
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
    readyCountries: segment.readyCountries ? [...ready, ''] : null,
    readyPairs: segment.readyBreeds ? [...readyBreeds, ''] : null,
    locales: list(segment.locales),
    platforms: list(segment.platforms),
  }
}
