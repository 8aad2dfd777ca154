// What both stores share of the app links (docs/decisions/022-into-the-app.md): the profile as the
// app takes it, and the hand-off's figures as the tallies keep them (db/<dialect>/015).
import { type AppProfile, HAND_OFF_STEPS, type HandOffCounts, type Platform } from '../../../contract/app.js'
import type { CountryCode } from '../../../contract/countries.js'
import type { HandOffTally } from '../../../contract/growth.js'
import type { Locale } from '../../../contract/locales.js'
import type { KennelClub, Litters, Profile, Role } from '../../../contract/visitor.js'
import { byKey, ofKind, recordOf, type TallyKind, type TallyRow } from '../tallies/shared.js'

/** The tallies the hand-off's figures are made of. */
export const HAND_OFF_TALLIES = ['app', 'app-country', 'app-breed'] as const satisfies readonly TallyKind[]

/** The sign-up's own columns the app takes with its profile. */
export interface ClaimedSignup {
  email: string
  locale: Locale
  country: CountryCode | null
  role: Role | null
  platform: Platform | null
  kennel_club: KennelClub | null
  litters: Litters | null
  created_at: string
  confirmed_at: string | null
}

/** The profile as POST /api/app/claim answers it: the sign-up's columns and its breeds' rows. */
export function appProfileOf(signup: ClaimedSignup, profile: Profile): AppProfile {
  return {
    email: signup.email,
    locale: signup.locale,
    country: signup.country,
    role: signup.role,
    platform: signup.platform,
    breeds: profile.breeds.map((breed) => ({ id: breed.breed, name: breed.name, side: breed.side, tests: breed.tests })),
    kennelClub: signup.kennel_club,
    litters: signup.litters,
    signedUpAt: signup.created_at,
    confirmedAt: signup.confirmed_at,
  }
}

const mostInvited = <T extends HandOffCounts>(a: T & { key: string }, b: T & { key: string }) =>
  b.invited - a.invited || b.opened - a.opened || b.claimed - a.claimed || a.key.localeCompare(b.key)

/**
 * The hand-off's figures from its tallies: everyone's (kind 'app'), per country and per breed; with a
 * breed, that breed's people only (its `breed|country` rows, summed, and per country).
 */
export function handOffOf(rows: readonly TallyRow[], breed: string | null = null): HandOffTally {
  const breedRows = byKey(ofKind(rows, 'app-breed'), HAND_OFF_STEPS)
  const perBreed = new Map<string, HandOffCounts>()
  const breedCountries = new Map<string, HandOffCounts>()
  for (const [key, counts] of breedRows) {
    const bar = key.indexOf('|')
    const id = bar < 0 ? key : key.slice(0, bar)
    const country = bar < 0 ? '' : key.slice(bar + 1)
    const sum = perBreed.get(id) ?? { invited: 0, opened: 0, claimed: 0 }
    for (const step of HAND_OFF_STEPS) sum[step] += counts[step]
    perBreed.set(id, sum)
    if (id === breed) breedCountries.set(country, counts)
  }
  const countries = breed === null ? byKey(ofKind(rows, 'app-country'), HAND_OFF_STEPS) : breedCountries
  const total =
    breed === null ? recordOf(ofKind(rows, 'app'), HAND_OFF_STEPS) : (perBreed.get(breed) ?? { invited: 0, opened: 0, claimed: 0 })
  return {
    ...total,
    countries: [...countries]
      .map(([key, counts]) => ({ key, ...counts }))
      .sort(mostInvited)
      .map(({ key, ...counts }) => ({ country: key, ...counts })),
    breeds: [...perBreed]
      .filter(([id]) => breed === null || id === breed)
      .map(([key, counts]) => ({ key, ...counts }))
      .sort(mostInvited)
      .map(({ key, ...counts }) => ({ breed: key, ...counts })),
  }
}

/** How many people of each country ('' none said) the app has taken (of one breed's people, with a breed). */
export function claimedPerCountry(rows: readonly TallyRow[], breed: string | null = null): Map<string, number> {
  return new Map(handOffOf(rows, breed).countries.map((row) => [row.country, row.claimed]))
}
