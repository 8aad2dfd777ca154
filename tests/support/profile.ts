// A profile as the tests write it (a role, typed names, a country; sides and the rest optional),
// made into what the store saves: each name read by the catalogue as the page's form is.
import type { CountryCode } from '../../contract/countries'
import type { KennelClub, Litters, ProfileBreed, Role, Side } from '../../contract/visitor'
import { readBreedName } from '../../server/breeds/catalogue'
import type { ProfileToSave } from '../../server/store/types'

export interface TestProfile {
  role: Role | null
  /** A typed name, or a name with its side and tests. */
  breeds: (string | { name: string; side?: Side | null; tests?: ProfileBreed['tests']; otherTests?: string | null })[]
  country: CountryCode | null
  club?: KennelClub | null
  litters?: Litters | null
}

export function profileOf(profile: TestProfile): ProfileToSave {
  return {
    role: profile.role,
    country: profile.country,
    club: profile.club ?? null,
    litters: profile.litters ?? null,
    breeds: profile.breeds.map((entry) => {
      const given = typeof entry === 'string' ? { name: entry } : entry
      return {
        name: given.name,
        ...readBreedName(given.name),
        side: given.side ?? null,
        tests: given.tests ?? [],
        otherTests: given.otherTests ?? null,
      }
    }),
  }
}
