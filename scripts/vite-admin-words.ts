// The admin page's catalogues as the browser loads them (web/admin/words.ts): `virtual:admin-words/pl`
// is Polish's catalogue with English filling any word it lacks, one module per language, so the
// page fetches its operator's language alone and never shows a raw key (the catalogue test fails
// on a missing word anyway). Used by Vite's build and by Vitest.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'

const PREFIX = 'virtual:admin-words/'
/** The words only the server says (an operator's mails, the sign-in link's page): not shipped to the page. */
export const SERVER_ONLY = ['mails', 'signInPage'] as const
const RESOLVED = '\0admin-words/'
const catalogue = (locale: string): unknown =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../locales/admin/${locale}.json`, import.meta.url)), 'utf8'))

/** `over`'s words, and `under`'s where `over` has none. */
function merged(under: unknown, over: unknown): unknown {
  if (typeof under !== 'object' || under === null || Array.isArray(under)) return over ?? under
  const result: Record<string, unknown> = { ...(under as Record<string, unknown>) }
  for (const [key, value] of Object.entries((over ?? {}) as Record<string, unknown>))
    result[key] = merged((under as Record<string, unknown>)[key], value)
  return result
}

export function adminWords(): Plugin {
  return {
    name: 'kennect-admin-words',
    resolveId: (id) =>
      id.startsWith(PREFIX) && /^[a-z]{2}$/.test(id.slice(PREFIX.length)) ? `${RESOLVED}${id.slice(PREFIX.length)}` : undefined,
    load(id) {
      if (!id.startsWith(RESOLVED)) return undefined
      const locale = id.slice(RESOLVED.length)
      this.addWatchFile(fileURLToPath(new URL(`../locales/admin/${locale}.json`, import.meta.url)))
      this.addWatchFile(fileURLToPath(new URL('../locales/admin/en.json', import.meta.url)))
      const all = (locale === 'en' ? catalogue('en') : merged(catalogue('en'), catalogue(locale))) as Record<string, unknown>
      const words = Object.fromEntries(Object.entries(all).filter(([key]) => !(SERVER_ONLY as readonly string[]).includes(key)))
      // JSON.parse of a string: parsed faster than the same object as a literal.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(words))})`
    },
  }
}
