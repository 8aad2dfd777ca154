// What a visitor may tell us on their page, read from its form: all optional, all checked.
import { isCountryCode } from '../../contract/countries.js'
import { MAX_BREED_LENGTH, MAX_BREEDS, type Profile, ROLES, type Role } from '../../contract/visitor.js'

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value)

/**
 * The profile the form sent, or null when a field holds what the form cannot send (a role or
 * country not offered, more than five breeds, a name too long or with control characters). Empty
 * fields are "not said"; breeds are trimmed and kept once each, in any letter case.
 */
export function readProfile(form: URLSearchParams): Profile | null {
  const role = form.get('role')?.trim() ?? ''
  if (role !== '' && !isRole(role)) return null
  const country = form.get('country')?.trim().toUpperCase() ?? ''
  if (country !== '' && !isCountryCode(country)) return null
  const breeds: string[] = []
  for (const raw of form.getAll('breed')) {
    const breed = raw.trim().replace(/\s+/g, ' ')
    if (breed === '') continue
    // eslint-disable-next-line no-control-regex -- the point is to refuse control characters
    if (breed.length > MAX_BREED_LENGTH || /[\u0000-\u001f\u007f]/.test(breed)) return null
    if (!breeds.some((known) => known.toLowerCase() === breed.toLowerCase())) breeds.push(breed)
  }
  if (breeds.length > MAX_BREEDS) return null
  return { role: role === '' ? null : role, breeds, country: country === '' ? null : country }
}
