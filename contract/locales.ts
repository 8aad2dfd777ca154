// The languages the product speaks (docs/decisions/016-languages.md): each page at its own path,
// the sign-up's language, the names a switcher shows. Constants and pure checks; imports nothing.

export const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'pl'] as const
export type Locale = (typeof LOCALES)[number]

/** English is the page at `/`, the `x-default`, and the language of anything not said otherwise. */
export const DEFAULT_LOCALE: Locale = 'en'

/** Open Graph's `og:locale` of each page. */
export const OG_LOCALES: Record<Locale, string> = { en: 'en_US', de: 'de_DE', fr: 'fr_FR', es: 'es_ES', it: 'it_IT', pl: 'pl_PL' }

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value)

/** A sign-up's language as sent: a known one (any letter case), else English, never a refusal. */
export function readLocale(value: unknown): Locale {
  const lower = typeof value === 'string' ? value.trim().toLowerCase() : ''
  return isLocale(lower) ? lower : DEFAULT_LOCALE
}

/**
 * The first of a browser's languages we speak (`de-AT` is German; `pt-BR` then `de` is German too),
 * or undefined when it names none of ours: `navigator.languages`, or an Accept-Language header's
 * tags in their order of preference (acceptedLanguages).
 */
export function firstLocaleOf(preferred: readonly string[]): Locale | undefined {
  for (const tag of preferred) {
    const language = tag.trim().toLowerCase().split('-')[0]
    if (isLocale(language)) return language
  }
  return undefined
}

/** An Accept-Language header's language tags, the most preferred first (`q=0` left out, `*` kept last). */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...parameters] = part.trim().split(';')
      const q = Number(/^\s*q=([\d.]+)\s*$/.exec(parameters.find((p) => /^\s*q=/.test(p)) ?? '')?.[1] ?? '1')
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, i }
    })
    .filter((entry) => entry.tag !== '' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((entry) => entry.tag)
}

/** The landing page of a language: `/` for English, `/de/` for German. */
export const localePath = (locale: Locale): string => (locale === DEFAULT_LOCALE ? '/' : `/${locale}/`)

/** The sign-up column (and the no-script form's field) that carries the page's language. */
export const LOCALE_COLUMN = 'locale'
