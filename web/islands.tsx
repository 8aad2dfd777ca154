// The parts of the page that need JavaScript. The prerender renders the whole page; the browser
// hydrates only these, each as its own root, so the static sections cost no script at all
// (docs/decisions/002-islands.md). Their words come from the page: the prerender writes them into
// a JSON block (ISLAND_WORDS_ID) in the page's own language, so the script carries no copy and one
// bundle serves every language (docs/decisions/016-languages.md). One definition serves both sides.
import type { ReactNode } from 'react'
import { PRIVACY_ID } from './anchors'
import { Toaster } from './components/ui/toaster'
import type { Content } from './content'
import { Footer } from './sections/footer'
import { LanguageHint } from './sections/language-hint'
import { WaitlistForm, type WaitlistFormWords } from './sections/waitlist'

/** What the islands say, and the page's language (the sign-up keeps it): only what the browser renders. */
export type IslandWords = Pick<Content, 'footer' | 'toaster'> & {
  form: WaitlistFormWords
  locale: Content['meta']['lang']
  /** Only on the default language's page (the others have no language hint island). */
  languageHints?: Content['header']['languages']['hints']
}

/** The page's JSON block of its islands' words. */
export const ISLAND_WORDS_ID = 'island-words'

export const islands = {
  waitlist: (words: IslandWords) => <WaitlistForm content={words.form} locale={words.locale} />,
  footer: (words: IslandWords) => <Footer content={words.footer} privacyId={PRIVACY_ID} />,
  toaster: (words: IslandWords) => <Toaster content={words.toaster} />,
  languageHint: (words: IslandWords) => <LanguageHint hints={words.languageHints ?? []} />,
} satisfies Record<string, (words: IslandWords) => ReactNode>

export type IslandName = keyof typeof islands

/** Islands a page may leave out: the language hint, on every page but the default language's. */
export const OPTIONAL_ISLANDS: readonly IslandName[] = ['languageHint']

/** Where an island sits in the page: a container the browser finds by `data-island`. */
export function Island({ name, words }: { name: IslandName; words: IslandWords }) {
  const render = islands[name]
  return <div data-island={name}>{render(words)}</div>
}

/** The islands' words as a data block (never run): `<` escaped, so no word can close the element. */
export function IslandWordsBlock({ words }: { words: IslandWords }) {
  return (
    <script
      type="application/json"
      id={ISLAND_WORDS_ID}
      dangerouslySetInnerHTML={{ __html: JSON.stringify(words).replace(/</g, '\\u003c') }}
    />
  )
}
