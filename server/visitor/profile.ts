// What a visitor may tell us on their page, read from its form: all optional, all checked.
import { isCountryCode } from '../../contract/countries.js'
import {
  HEALTH_TESTS,
  type HealthTest,
  KENNEL_CLUBS,
  type KennelClub,
  LITTER_CHOICES,
  MAX_BREED_LENGTH,
  MAX_BREEDS,
  MAX_OTHER_TESTS_LENGTH,
  ROLES,
  type Role,
  SIDES,
  type Side,
} from '../../contract/visitor.js'
import { readBreedName } from '../breeds/catalogue.js'
import type { ProfileToSave } from '../store/types.js'

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): value is T =>
    (values as readonly string[]).includes(value)
const isRole = oneOf<Role>(ROLES)
const isSide = oneOf<Side>(SIDES)
const isClub = oneOf<KennelClub>(KENNEL_CLUBS)
const isTest = oneOf<HealthTest>(HEALTH_TESTS)
// eslint-disable-next-line no-control-regex -- the point is to refuse control characters
const CONTROL = /[\u0000-\u001f\u007f]/

/** One line of words: spaces folded, or null when too long or with control characters. */
function words(raw: string | null, max: number): string | null {
  const text = (raw ?? '').trim().replace(/\s+/g, ' ')
  return text.length > max || CONTROL.test(text) ? null : text
}

/**
 * The profile the form sent, or null when a field holds what the form cannot send (a role, side,
 * club, test or country not offered, more than five breeds, a name too long or with control
 * characters). Empty fields are "not said". Breeds come as `breed-1` … `breed-5`, each with its
 * `side-N`, `tests-N` (repeated) and `other-tests-N`; a name given twice (as matching reads it) is
 * kept once. Each name is looked up in the catalogue.
 */
export function readProfile(form: URLSearchParams): ProfileToSave | null {
  const role = form.get('role')?.trim() ?? ''
  if (role !== '' && !isRole(role)) return null
  const country = form.get('country')?.trim().toUpperCase() ?? ''
  if (country !== '' && !isCountryCode(country)) return null
  const club = form.get('club')?.trim() ?? ''
  if (club !== '' && !isClub(club)) return null
  const littersText = form.get('litters')?.trim() ?? ''
  const litters = littersText === '' ? null : (LITTER_CHOICES.find((n) => String(n) === littersText) ?? undefined)
  if (litters === undefined) return null

  // The indexed rows of the page's form, or a plain list of names (`breed`, repeated).
  const indexed = [...form.keys()].some((key) => /^breed-\d+$/.test(key))
  const rows = indexed
    ? Array.from({ length: MAX_BREEDS + 1 }, (_, i) => i + 1).map((n) => ({
        name: form.get(`breed-${n}`),
        side: form.get(`side-${n}`) ?? '',
        tests: form.getAll(`tests-${n}`),
        other: form.get(`other-tests-${n}`),
      }))
    : form.getAll('breed').map((name) => ({ name, side: '', tests: [] as string[], other: null }))
  if (indexed && [...form.keys()].some((key) => /^breed-(\d+)$/.test(key) && !/^breed-[1-5]$/.test(key))) return null

  const breeds: ProfileToSave['breeds'] = []
  for (const row of rows) {
    const name = words(row.name, MAX_BREED_LENGTH)
    const otherTests = words(row.other, MAX_OTHER_TESTS_LENGTH)
    if (name === null || otherTests === null) return null
    if (row.side !== '' && !isSide(row.side)) return null
    if (!row.tests.every(isTest)) return null
    if (name === '') continue
    const { key, breed } = readBreedName(name)
    if (breeds.some((known) => known.key === key)) continue
    breeds.push({
      name,
      key,
      breed,
      side: row.side === '' ? null : row.side,
      tests: [...new Set(row.tests)].filter(isTest),
      otherTests: otherTests === '' ? null : otherTests,
    })
  }
  if (breeds.length > MAX_BREEDS) return null
  return {
    role: role === '' ? null : role,
    breeds,
    country: country === '' ? null : country,
    club: club === '' ? null : club,
    litters,
  }
}
