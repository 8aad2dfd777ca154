// What both stores' demand maps share: how many they list, a named breed as the map shows it, and
// the map put together from its two sources: the tallies (exact now: everyone's figures, the launch
// meters, the hand-off) and the rows (the most named breeds, the top inviters, and every figure of
// one breed's people), which at scale are counted off the request path and say when
// (shared/figure-cache.ts).
import type { Segments } from '../../../contract/campaigns.js'
import { breedName } from '../../breeds/catalogue.js'
import { claimedPerCountry, handOffOf } from '../app/shared.js'
import { metersOf } from '../growth/launch.js'
import type { demandOf } from '../tallies/people.js'
import type { TallyRow } from '../tallies/shared.js'
import type { LaunchTargets } from '../../../contract/growth.js'
import type { CountryCount } from '../types.js'

/** How many inviters the demand map lists. */
export const TOP_INVITERS = 10
/** How many breeds the demand map lists. */
export const TOP_BREEDS = 20

/** A breed as the demand map's query counts it: the catalogue's id, or none and the first spelling of a name it missed. */
export type NamedBreed = Omit<Segments['topBreeds'][number], 'breed' | 'id'> & { id: string | null; name: string }

/** The catalogue's (English) name for a breed it knows; the name as typed for one it does not. */
export const namedBreed = ({ id, name, ...counts }: NamedBreed): Segments['topBreeds'][number] => ({
  id,
  breed: id === null ? name : breedName(id),
  ...counts,
})

/** The figures of people: from the tallies for everyone, from the rows for one breed's people. */
export type PeopleFigures = ReturnType<typeof demandOf>

/** What the rows answer: the most named breeds and the top inviters, and for one breed its people's figures. */
export interface CountedDemand {
  topBreeds: Segments['topBreeds']
  topInviters: Segments['topInviters']
  people?: PeopleFigures
}

/** The demand map of everyone (people from the tallies) or of one breed's people (all counted from the rows). */
export function demandMapOf({
  breed,
  people,
  counted,
  handOff,
  counts,
  targets,
}: {
  breed: string | null
  people: PeopleFigures
  counted: CountedDemand & { countedAt: string }
  handOff: readonly TallyRow[]
  counts: CountryCount[]
  targets: LaunchTargets
}): Segments {
  const claimed = claimedPerCountry(handOff, breed)
  return {
    ...people,
    claimed: handOffOf(handOff, breed).claimed,
    byCountry: people.byCountry.map((row) => ({ ...row, claimed: claimed.get(row.country ?? '') ?? 0 })),
    topBreeds: counted.topBreeds,
    topInviters: counted.topInviters,
    meters: metersOf(counts, targets),
    targets,
    countedAt: counted.countedAt,
  }
}
