import { X } from 'lucide'
import { useState, useSyncExternalStore } from 'react'
import { DEFAULT_LOCALE } from '../../contract/locales'
import { SvgIcon } from '../components/svg-icon'
import type { LanguageHint as Hint } from '../content'

/** Where a closed offer is remembered, for the rest of the visit's tab. */
const CLOSED_KEY = 'kennect-language-hint-closed'

/**
 * The browser's first preferred language that has a page, if it is not the default one (which
 * has no hint): `de-AT` finds German, `pt-BR` then `de` finds German too.
 */
export function preferredHint(hints: Hint[], preferred: readonly string[]): Hint | undefined {
  for (const tag of preferred) {
    const language = tag.toLowerCase().split('-')[0]
    if (language === DEFAULT_LOCALE) return undefined
    const hint = hints.find((h) => h.locale === language)
    if (hint) return hint
  }
  return undefined
}

/** What the browser offers does not change while the page is open. */
const noChanges = () => () => {}

/** The hint for this browser: none once closed in this tab, or after a link from this site (the visitor chose). */
function offeredHint(hints: Hint[]): Hint | undefined {
  if (hints.length === 0 || sessionStorage.getItem(CLOSED_KEY) !== null) return undefined
  if (document.referrer !== '' && URL.canParse(document.referrer) && new URL(document.referrer).origin === location.origin) return undefined
  return preferredHint(hints, navigator.languages)
}

/**
 * On the default language's page, to a browser that prefers another language we have: a link to
 * that page, in that language, carrying the address's query and fragment (an invite and a
 * campaign stay with the visitor). An offer, never a redirect: crawlers and people who chose this
 * page keep it. Not shown after a link from this site (the visitor chose) or once closed. Fixed at
 * the bottom: it moves nothing on the page.
 */
export function LanguageHint({ hints }: { hints: Hint[] }) {
  const [closed, setClosed] = useState(false)
  // Nothing in the prerender (it knows no browser); the browser's choice once hydrated.
  const offered = useSyncExternalStore(
    noChanges,
    () => offeredHint(hints),
    () => undefined,
  )
  const hint = closed ? undefined : offered
  if (!hint) return null
  const close = () => {
    sessionStorage.setItem(CLOSED_KEY, hint.locale)
    setClosed(true)
  }
  return (
    <aside
      lang={hint.locale}
      aria-label={hint.text}
      className="fixed inset-x-4 bottom-4 z-40 flex items-center gap-2 rounded-2xl border border-stone-200 bg-white py-2 pr-2 pl-4 text-stone-900 shadow-xl sm:right-auto sm:max-w-sm dark:border-stone-700 dark:bg-stone-900 dark:text-stone-50"
    >
      <a
        href={`${hint.href}${location.search}${location.hash}`}
        hrefLang={hint.locale}
        className="mr-auto py-2 font-semibold text-brand-800 underline underline-offset-2 focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none dark:text-brand-300"
      >
        {hint.text}
      </a>
      <button
        type="button"
        onClick={close}
        aria-label={hint.close}
        className="grid size-10 shrink-0 place-items-center rounded-lg text-stone-600 hover:bg-stone-100 focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none dark:text-stone-300 dark:hover:bg-stone-800"
      >
        <SvgIcon icon={X} className="size-5" />
      </button>
    </aside>
  )
}
