// A partner's fields as the admin API and the command line take them, checked once here: a 400
// names the first wrong field and nothing is saved (docs/partners.md).
import { randomBytes } from 'node:crypto'
import { isCountryCode } from '../../contract/countries.js'
import type { Locale } from '../../contract/locales.js'
import {
  type Partner,
  type PartnerChange,
  PARTNER_NAME_MAX,
  PARTNER_ORIGINS_MAX,
  readOrigin,
  thanksUrlProblem,
} from '../../contract/partners.js'
import { breedName, isBreedId, readBreedName } from '../breeds/catalogue.js'
import { HttpError } from '../http/errors.js'
import type { PartnerCounts, PartnerFields, PartnerRecord } from '../store/types.js'

/** A new public key: 128 random bits, URL-safe (contract/partners.ts, PARTNER_KEY_PATTERN). */
export const newPartnerKey = () => randomBytes(16).toString('base64url')

const refuse = (message: string) => new HttpError(400, 'invalid_partner', message)

/** No line breaks or other control characters: a name is shown on one line, in the view and the log. */
const CONTROL = /\p{Cc}/u

/** A breed as the catalogue reads it: its id, or any of its names in the six languages. */
function readBreed(typed: string): string {
  if (isBreedId(typed)) return typed
  const breed = readBreedName(typed).breed
  if (!breed)
    throw refuse(`breed: not a breed of the catalogue (an id such as labrador-retriever, or a name), got ${JSON.stringify(typed)}`)
  return breed
}

/** Empty text, or null: the field cleared. */
const cleared = (value: unknown) => value === null || (typeof value === 'string' && value.trim() === '')

/**
 * The fields a request sets, each checked and written as kept (an origin without its trailing
 * slash, a breed as its id, a country in capitals). With `current`, a change: a thanks URL must be
 * on the origins the partner will have.
 */
export function checkedPartner(body: PartnerChange, current?: PartnerRecord): Partial<PartnerFields> & { disabled?: boolean } {
  const fields: Partial<PartnerFields> & { disabled?: boolean } = {}
  if (body.name !== undefined) {
    const name = String(body.name).trim()
    if (name === '' || name.length > PARTNER_NAME_MAX || CONTROL.test(name))
      throw refuse(`name: 1 to ${PARTNER_NAME_MAX} characters on one line, got ${JSON.stringify(body.name)}`)
    fields.name = name
  }
  if (body.origins !== undefined) {
    if (!Array.isArray(body.origins) || body.origins.length === 0) throw refuse('origins: at least one, such as ["https://club.example"]')
    if (body.origins.length > PARTNER_ORIGINS_MAX) throw refuse(`origins: at most ${PARTNER_ORIGINS_MAX}, got ${body.origins.length}`)
    const origins: string[] = []
    for (const [i, typed] of body.origins.entries()) {
      const read = readOrigin(String(typed))
      if ('problem' in read) throw refuse(`origins/${i}: ${read.problem}`)
      if (!origins.includes(read.origin)) origins.push(read.origin)
    }
    fields.origins = origins
  }
  const origins = fields.origins ?? current?.origins ?? []
  if (body.thanksUrl !== undefined) {
    if (cleared(body.thanksUrl)) fields.thanks_url = null
    else {
      const url = String(body.thanksUrl).trim()
      const problem = thanksUrlProblem(url, origins)
      if (problem) throw refuse(`thanksUrl: ${problem}`)
      fields.thanks_url = url
    }
  } else if (current?.thanks_url && fields.origins) {
    // Origins changed under a thanks URL kept: it must still be on one of them.
    const problem = thanksUrlProblem(current.thanks_url, origins)
    if (problem) throw refuse(`thanksUrl: ${problem} (change or clear it with the origins)`)
  }
  if (body.breed !== undefined) fields.breed = cleared(body.breed) ? null : readBreed(String(body.breed).trim())
  if (body.country !== undefined) {
    if (cleared(body.country)) fields.country = null
    else {
      const country = String(body.country).trim().toUpperCase()
      if (!isCountryCode(country)) throw refuse(`country: an ISO 3166-1 code such as DE, got ${JSON.stringify(body.country)}`)
      fields.country = country
    }
  }
  if (body.disabled !== undefined) fields.disabled = body.disabled === true
  return fields
}

/** A new partner's fields, all of them (name and origins required). */
export function newPartnerFields(body: PartnerChange): PartnerFields {
  if (body.name === undefined) throw refuse('name: required')
  if (body.origins === undefined) throw refuse('origins: required, such as ["https://club.example"]')
  const fields = checkedPartner({ ...body, disabled: undefined })
  return {
    name: fields.name ?? '',
    origins: fields.origins ?? [],
    thanks_url: fields.thanks_url ?? null,
    breed: fields.breed ?? null,
    country: fields.country ?? null,
  }
}

/** A partner as the admin API answers it, its breed named in `locale` (the caller's: localeOf; the command line's English). */
export const partnerOf = (row: PartnerRecord & PartnerCounts, locale: Locale): Partner => ({
  id: row.id,
  name: row.name,
  key: row.key,
  origins: row.origins,
  thanksUrl: row.thanks_url,
  breed: row.breed,
  breedName: row.breed === null ? null : breedName(row.breed, locale),
  country: row.country !== null && isCountryCode(row.country) ? row.country : null,
  disabled: row.disabled_at !== null,
  createdAt: row.created_at,
  signups: row.signups,
  confirmed: row.confirmed,
})
