// The admin page's words as the tests read them (expected copy is imported, never retyped): a
// language's catalogue through the page's own reader (web/admin/words.ts). English unless told;
// importing this sets the page's words to English for a module that reads them at its top.
import type { Locale } from '../../contract/locales'
import { adminCatalogues } from '../../locales/admin/index'
import { adminContentIn, setAdminWords } from '../../web/admin/content'
import { type AdminCatalogue, type Words, wordsOf } from '../../web/admin/words'

export const adminWordsIn = (locale: Locale): Words => wordsOf(adminCatalogues[locale] as AdminCatalogue, locale)
export const adminContentFor = (locale: Locale) => adminContentIn(adminWordsIn(locale))

setAdminWords(adminWordsIn('en'))

export const adminContent = adminContentFor('en')
