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
}

const list = (values: readonly string[] | undefined) => (values && values.length > 0 ? [...values] : null)
const moment = (value: string | undefined) => (value ? new Date(value).toISOString() : null)

export function segmentFilter(segment: Segment): SegmentFilter {
  return {
    includeUnconfirmed: segment.includeUnconfirmed === true,
    roles: list(segment.roles),
    countries: list(segment.countries),
    breeds: list(segment.breeds?.map((breed) => breed.trim().toLowerCase())),
    since: moment(segment.since),
    until: moment(segment.until),
    sources: list(segment.sources),
  }
}
