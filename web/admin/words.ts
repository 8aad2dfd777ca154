// The back office's words in the browser (docs/decisions/027-the-back-office-in-six-languages.md):
// one language's catalogue (locales/admin/), loaded alone when the page starts or the operator
// chooses another, read with Intl's plural rules and formats. No i18n library ships: this reads
// i18next's JSON format (nested keys, `{{name}}`, `{{name, number}}`, `_one`/`_few`/`_many`/`_other`),
// as the server's i18next reads the same files (a test holds the two to the same answers).
import type { Locale } from '../../contract/locales'
import type englishCatalogue from '../../locales/admin/en.json'

/**
 * A catalogue as English has it (every other language's has the same keys: the catalogue test),
 * without the words only the server says (scripts/vite-admin-words.ts leaves them out of the page).
 */
export type AdminCatalogue = Omit<typeof englishCatalogue, 'mails' | 'signInPage'>

/**
 * Each language's catalogue, English filling any word it lacks (vite.config.ts merges them at build
 * time, so a page loads one file): a chunk of its own each, fetched only when that language is read.
 */
export const catalogueLoaders: Record<Locale, () => Promise<AdminCatalogue>> = {
  en: () => import('virtual:admin-words/en').then((module) => module.default),
  de: () => import('virtual:admin-words/de').then((module) => module.default),
  fr: () => import('virtual:admin-words/fr').then((module) => module.default),
  es: () => import('virtual:admin-words/es').then((module) => module.default),
  it: () => import('virtual:admin-words/it').then((module) => module.default),
  pl: () => import('virtual:admin-words/pl').then((module) => module.default),
}

export type Values = Record<string, string | number>

export interface Words {
  locale: Locale
  catalogue: AdminCatalogue
  /** A message by its key, its values put in; with a `count`, the form its language's plural rules choose. */
  t(key: string, values?: Values): string
  /** A number as the language writes it (1,234 · 1.234 · 1 234). */
  number(n: number): string
  /** A share of a whole, one decimal (12.5 % · 12,5 %), or undefined with no whole. */
  percent(part: number, whole: number): string | undefined
  /** A moment, its day and time to the minute in the browser's time zone. */
  dateTime(iso: string): string
  /** The same to the second (a log's lines, a delivery's attempts). */
  instant(iso: string): string
  /** A moment's time of day, to the second, in the browser's time zone. */
  time(iso: string): string
  /** A day as the API counts them (a UTC day, `2026-11-23`), as the language writes a date. */
  day(isoDay: string): string
  /** How long ago a moment was (or how soon it comes): "3 minutes ago", "vor 2 Tagen". */
  ago(iso: string, now?: number): string
  /** A country's name in the operator's language, or its code. */
  country(code: string): string
  /** A language's name in the operator's language. */
  language(locale: Locale): string
}

const PLACEHOLDER = /\{\{\s*(\w+)(?:\s*,\s*(\w+))?\s*\}\}/g

function lookUp(catalogue: unknown, key: string): unknown {
  let node = catalogue
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return node
}

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
]

export function wordsOf(catalogue: AdminCatalogue, locale: Locale): Words {
  const plurals = new Intl.PluralRules(locale)
  const numbers = new Intl.NumberFormat(locale)
  const shares = new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 })
  const moments = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
  const instants = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' })
  const times = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' })
  const days = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' })
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  const regions = new Intl.DisplayNames([locale], { type: 'region' })
  const languages = new Intl.DisplayNames([locale], { type: 'language' })
  const message = (key: string, count: number | undefined): string => {
    if (count !== undefined) {
      const form = lookUp(catalogue, `${key}_${plurals.select(count)}`) ?? lookUp(catalogue, `${key}_other`)
      if (typeof form === 'string') return form
    }
    const found = lookUp(catalogue, key)
    // A key no catalogue has is a mistake in the code: said plainly on the page (the tests fail on it).
    return typeof found === 'string' ? found : key
  }
  return {
    locale,
    catalogue,
    t: (key, values = {}) => {
      const count = typeof values.count === 'number' ? values.count : undefined
      return message(key, count).replace(PLACEHOLDER, (whole, name: string, format: string | undefined) => {
        const value = values[name]
        if (value === undefined) return whole
        return format === 'number' && typeof value === 'number' ? numbers.format(value) : String(value)
      })
    },
    number: (n) => numbers.format(n),
    percent: (part, whole) => (whole === 0 ? undefined : shares.format(part / whole)),
    dateTime: (iso) => moments.format(new Date(iso)),
    instant: (iso) => instants.format(new Date(iso)),
    time: (iso) => times.format(new Date(iso)),
    day: (isoDay) => days.format(new Date(`${isoDay.slice(0, 10)}T00:00:00Z`)),
    ago: (iso, now = Date.now()) => {
      const seconds = Math.round((Date.parse(iso) - now) / 1000)
      const [unit, size] = RELATIVE_UNITS.find(([, size]) => Math.abs(seconds) >= size) ?? ['second', 1]
      return relative.format(Math.round(seconds / size), unit)
    },
    country: (code) => regions.of(code) ?? code,
    language: (other) => languages.of(other) ?? other,
  }
}
