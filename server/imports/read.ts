// A file's header and records read as the join reads a sign-up (docs/import.md): the address trimmed
// and checked by checkRow (BLOCK_DISPOSABLE_EMAIL's domains too), the language by the join's rule
// (an unknown one is English), a country by its code or its name in any of our six languages, a
// role and a side from the profile's lists, and breeds by the catalogue, each name kept as typed.
import { breedKey } from '../../contract/breeds.js'
import { COUNTRY_CODES, type CountryCode } from '../../contract/countries.js'
import { BREED_SEPARATOR, IMPORT_COLUMNS, type ImportColumn, type ImportFailure, type ImportMode } from '../../contract/imports.js'
import { isLocale, LOCALES, type Locale, readLocale } from '../../contract/locales.js'
import { MAX_BREED_LENGTH, MAX_BREEDS, ROLES, type Role, SIDES, type Side } from '../../contract/visitor.js'
import { MAX_EMAIL_LENGTH } from '../../contract/waitlist.js'
import { readBreedName, warmBreedNames } from '../breeds/catalogue.js'
import type { ImportRecord } from '../store/types.js'
import { checkRow, isValidEmail, type RowRules } from '../waitlist/check-row.js'

/** Which cell each column is in, the header name it was found under, and the names not read. */
export interface Header {
  cells: Partial<Record<ImportColumn, number>>
  names: Partial<Record<ImportColumn, string>>
  ignored: string[]
}

/**
 * A function of one text, remembered for the texts met: a list says the same few countries,
 * languages and breeds again and again, and reading each anew (normalising, matching) is most of a
 * row's work and its garbage. At most `limit` texts are kept; past that it starts again.
 */
function remembered<T>(read: (text: string) => T, limit = 10_000): (text: string) => T {
  let known = new Map<string, T>()
  return (text) => {
    const found = known.get(text)
    if (found !== undefined || known.has(text)) return found as T
    const value = read(text)
    if (known.size >= limit) known = new Map()
    known.set(text, value)
    return value
  }
}

/** A header name as matched: letter case and spaces at either end (and runs of spaces inside) ignored. */
const headerName = (cell: string) => cell.trim().replace(/\s+/g, ' ').toLowerCase()

/** The header's columns, or null when it names no address column. A column named twice is read from its first cell. */
export function readHeader(cells: readonly string[]): Header | null {
  const header: Header = { cells: {}, names: {}, ignored: [] }
  cells.forEach((cell, index) => {
    const name = headerName(cell)
    const column = (Object.keys(IMPORT_COLUMNS) as ImportColumn[]).find((key) => (IMPORT_COLUMNS[key] as readonly string[]).includes(name))
    if (column !== undefined && header.cells[column] === undefined) {
      header.cells[column] = index
      header.names[column] = cell.trim()
    } else if (cell.trim() !== '') header.ignored.push(cell.trim())
  })
  return header.cells.email === undefined ? null : header
}

/** What the error file keeps of a cell (an address is at most 254 characters; a line may be anything). */
const MAX_KEPT = MAX_EMAIL_LENGTH + 66
const kept = (text: string) => (text.length > MAX_KEPT ? `${text.slice(0, MAX_KEPT)}…` : text)

/** The name two spellings of a country share (the catalogue's key: case, accents and word order ignored). */
let countries: Map<string, CountryCode> | undefined
function countryIndex(): Map<string, CountryCode> {
  if (countries) return countries
  const steps = countryIndexSteps()
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return (countries = step.value)
}

/** The countries' names, a language at a time (each some 6 ms of Intl's names and their keys). */
function* countryIndexSteps(): Generator<void, Map<string, CountryCode>> {
  const names = new Map<string, CountryCode | null>()
  const add = (name: string | undefined, code: CountryCode) => {
    const key = name === undefined ? '' : breedKey(name)
    if (key === '') return
    const known = names.get(key)
    // A name two countries share names neither.
    names.set(key, known === undefined || known === code ? code : null)
  }
  for (const locale of LOCALES) {
    const display = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' })
    for (const code of COUNTRY_CODES) add(display.of(code), code)
    yield
  }
  // What English lists write for the two most often shortened.
  add('UK', 'GB')
  add('USA', 'US')
  return new Map([...names].flatMap(([key, code]) => (code === null ? [] : [[key, code] as const])))
}

/**
 * What reading a record needs made before the first (the countries' and the breeds' names), a step
 * at a time with `rest` between: made at the first record, they held the event loop ~80 ms.
 */
export async function warmReaders(rest: () => Promise<void>): Promise<void> {
  if (!countries) {
    const steps = countryIndexSteps()
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        countries ??= step.value
        break
      }
      await rest()
    }
  }
  await warmBreedNames(rest)
}

/** A country as written: its ISO 3166-1 code (any letter case), or its name in English or one of our languages. Null: not said; undefined: unknown. */
export const readCountry = remembered(readCountryOf)
function readCountryOf(text: string): CountryCode | null | undefined {
  const trimmed = text.trim()
  if (trimmed === '') return null
  const code = trimmed.toUpperCase()
  if ((COUNTRY_CODES as readonly string[]).includes(code)) return code as CountryCode
  return countryIndex().get(breedKey(trimmed))
}

/** Language names in our six languages ("German", "Deutsch", "allemand"), each to its code. */
let languages: Map<string, Locale> | undefined
function languageIndex(): Map<string, Locale> {
  if (languages) return languages
  languages = new Map()
  for (const reader of LOCALES) {
    const display = new Intl.DisplayNames([reader], { type: 'language', fallback: 'none' })
    for (const locale of LOCALES) {
      const name = display.of(locale)
      if (name) languages.set(breedKey(name), locale)
    }
  }
  return languages
}

/** A language as written: a code (`de`, `de-DE`, `de_AT`) or a name; anything else is English, as the join reads it. */
export const readLanguage = remembered(readLanguageOf)
function readLanguageOf(text: string): Locale {
  const trimmed = text.trim()
  const tag = trimmed.toLowerCase().split(/[-_]/)[0] ?? ''
  if (isLocale(tag)) return tag
  return languageIndex().get(breedKey(trimmed)) ?? readLocale(trimmed)
}

const oneOf = <T extends string>(values: readonly T[], text: string): T | null | undefined => {
  const value = text.trim().toLowerCase()
  if (value === '') return null
  return (values as readonly string[]).includes(value) ? (value as T) : undefined
}

// eslint-disable-next-line no-control-regex -- the point is to refuse control characters
const CONTROL = /[\u0000-\u001f\u007f]/

const readBreed = remembered(readBreedName)

/** The breeds of a cell: names split at `;` or `|`, each once as matching reads it, read by the catalogue. */
function readBreeds(text: string): ImportRecord['breeds'] | ImportFailure {
  const breeds: ImportRecord['breeds'] = []
  for (const part of text.split(BREED_SEPARATOR)) {
    const name = part.trim().replace(/\s+/g, ' ')
    if (name === '') continue
    if (name.length > MAX_BREED_LENGTH || CONTROL.test(name)) return 'breed_too_long'
    const read = readBreed(name)
    if (breeds.some((known) => known.key === read.key)) continue
    breeds.push({ name, ...read })
  }
  return breeds.length > MAX_BREEDS ? 'too_many_breeds' : breeds
}

/** A record read: what the store is given of it, or why it fails (with the address as written, for the error file). */
export type ReadRecord =
  { ok: true; record: Omit<ImportRecord, 'line' | 'emailHash'> } | { ok: false; email: string; reason: ImportFailure }

/** A record as the import reads it; in suppress mode only its address is read. */
export function readRecord(cells: readonly string[], header: Header, mode: ImportMode, rules: RowRules): ReadRecord {
  const cell = (column: ImportColumn) => {
    const index = header.cells[column]
    return index === undefined ? '' : (cells[index] ?? '')
  }
  const email = cell('email').trim()
  const fail = (reason: ImportFailure): ReadRecord => ({ ok: false, email: kept(email), reason })
  const checked = checkRow({ email }, rules)
  if (!checked.ok) return fail(isValidEmail(email) ? 'disposable_email' : 'invalid_email')
  const blank = { email: checked.row.email, locale: 'en' as Locale, country: null, role: null, breeds: [], side: null }
  if (mode === 'suppress') return { ok: true, record: blank }
  const country = readCountry(cell('country'))
  if (country === undefined) return fail('unknown_country')
  const role = oneOf<Role>(ROLES, cell('role'))
  if (role === undefined) return fail('unknown_role')
  const side = oneOf<Side>(SIDES, cell('side'))
  if (side === undefined) return fail('unknown_side')
  const breeds = readBreeds(cell('breeds'))
  if (typeof breeds === 'string') return fail(breeds)
  return { ok: true, record: { ...blank, locale: readLanguage(cell('locale')), country, role, breeds, side } }
}

/** Whether every cell of a record is blank (a spreadsheet's trailing `,,,` lines): no record at all. */
export const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '')
