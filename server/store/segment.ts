// A campaign's segment as both stores query it: absent and empty filters are null (no filter),
// breeds compared in lower case, moments as ISO 8601 in UTC.
import type { Segment } from '../../contract/campaigns.js'

export interface SegmentFilter {
  includeUnconfirmed: boolean
  roles: string[] | null
  countries: string[] | null
  breeds: string[] | null
  since: string | null
  until: string | null
  sources: string[] | null
  invitedAtLeast: number | null
  /** The ready countries, when the segment asks for them (the store works them out as it counts or sends). */
  readyCountries: string[] | null
  locales: string[] | null
}

const list = (values: readonly string[] | undefined) => (values && values.length > 0 ? [...values] : null)
const moment = (value: string | undefined) => (value ? new Date(value).toISOString() : null)

/** `ready`: the countries whose meters are full now, if the segment asks for them. */
export function segmentFilter(segment: Segment, ready: readonly string[] = []): SegmentFilter {
  return {
    includeUnconfirmed: segment.includeUnconfirmed === true,
    roles: list(segment.roles),
    countries: list(segment.countries),
    breeds: list(segment.breeds?.map((breed) => breed.trim().toLowerCase())),
    since: moment(segment.since),
    until: moment(segment.until),
    sources: list(segment.sources),
    invitedAtLeast: segment.invitedAtLeast !== undefined && segment.invitedAtLeast > 0 ? segment.invitedAtLeast : null,
    // Asked for and none ready: a list that matches nobody (an empty list would mean no filter).
    readyCountries: segment.readyCountries ? [...ready, ''] : null,
    locales: list(segment.locales),
  }
}
