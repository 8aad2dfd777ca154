// The message catalogues, one per language in i18next's JSON format (v4: nested keys, `{{name}}`
// for a value, `_one`/`_few`/`_many`/`_other` for the forms Intl.PluralRules names), and the
// translator the build and the server use. Never the browser: a page's islands get their words
// from the page itself (docs/decisions/016-languages.md).
import i18next, { type ResourceKey } from 'i18next'
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../contract/locales.js'
import de from './de.json' with { type: 'json' }
import en from './en.json' with { type: 'json' }
import es from './es.json' with { type: 'json' }
import fr from './fr.json' with { type: 'json' }
import it from './it.json' with { type: 'json' }
import pl from './pl.json' with { type: 'json' }
import { adminCatalogues } from './admin/index.js'

export const catalogues: Record<Locale, ResourceKey> = { en, de, fr, es, it, pl }
export { adminCatalogues }

const instance = i18next.createInstance()
void instance.init({
  // The page's, the visitor's and the mails' words (`translation`); the back office's (`admin`).
  resources: Object.fromEntries(LOCALES.map((locale) => [locale, { translation: catalogues[locale], admin: adminCatalogues[locale] }])),
  lng: DEFAULT_LOCALE,
  // A message missing in a language says it in English (the tests refuse a missing one anyway).
  fallbackLng: DEFAULT_LOCALE,
  initAsync: false,
  // Pages are escaped by React, mails by their templates: the catalogue's words stay as written.
  interpolation: { escapeValue: false },
  returnNull: false,
})

/** Every key asked for, in this process: the catalogue test finds the messages no code uses. */
export const keysAsked = new Set<string>()
/** The same for the admin catalogues' keys the server asks for. */
export const adminKeysAsked = new Set<string>()

export interface Translate {
  (key: string, values?: Record<string, unknown>): string
  locale: Locale
  /** A list of messages (`about.paragraphs`), each interpolated. */
  list(key: string, values?: Record<string, unknown>): string[]
  /** The forms of a plural message by category (`{ one, other }` in English, four in Polish). */
  plurals(key: string): Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }
}

/** The language's translator, with the values every message may use (the product's name, the support address). */
export function translator(locale: Locale, defaults: Record<string, string> = {}): Translate {
  return translatorOf('translation', locale, defaults)
}

/**
 * The back office's words on the server (an operator's mails, the sign-in link's page), from the
 * admin catalogues (locales/admin/): the admin page reads the same files in the browser.
 */
export function adminTranslator(locale: Locale, defaults: Record<string, string> = {}): Translate {
  return translatorOf('admin', locale, defaults)
}

function translatorOf(namespace: 'translation' | 'admin', locale: Locale, defaults: Record<string, string>): Translate {
  const t = instance.getFixedT(locale, namespace)
  const asked = namespace === 'admin' ? adminKeysAsked : keysAsked
  const translate = ((key: string, values: Record<string, unknown> = {}) => {
    asked.add(key)
    return t(key, { ...defaults, ...values })
  }) as Translate
  translate.locale = locale
  translate.list = (key, values = {}) => {
    asked.add(key)
    const items = t(key, { ...defaults, ...values, returnObjects: true }) as unknown
    if (!Array.isArray(items))
      throw new Error(`${namespace === 'admin' ? 'locales/admin/' : 'locales/'}${locale}.json: ${key} is not a list`)
    return items.map(String)
  }
  translate.plurals = (key) => {
    asked.add(key)
    const forms: Partial<Record<Intl.LDMLPluralRule, string>> = {}
    for (const category of new Intl.PluralRules(locale).resolvedOptions().pluralCategories) {
      const form = instance.getResource(locale, namespace, `${key}_${category}`) as unknown
      if (typeof form === 'string') forms[category] = form
    }
    if (forms.other === undefined)
      throw new Error(`${namespace === 'admin' ? 'locales/admin/' : 'locales/'}${locale}.json: ${key}_other is missing`)
    return forms as Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }
  }
  return translate
}

/** Each language named in itself (its catalogue's `language`), as a switcher offers it. */
export const languageName = (locale: Locale): string => translator(locale)('language')
