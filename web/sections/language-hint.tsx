import { X } from 'lucide'
import { useState, useSyncExternalStore } from 'react'
import { DEFAULT_LOCALE, firstLocaleOf } from '../../contract/locales'
import { SvgIcon } from '../components/svg-icon'
import type { LanguageHint as Hint } from '../content'

/** Where a closed offer is remembered, for the rest of the visit's tab. */
const CLOSED_KEY = 'kennect-language-hint-closed'

/**
 * The browser's first preferred language that has a page, if it is not the default one (which
 * has no hint): `de-AT` finds German, `pt-BR` then `de` finds German too.
 */
export function preferredHint(hints: Hint[], preferred: readonly string[]): Hint | undefined {
  const locale = firstLocaleOf(preferred)
  return locale === DEFAULT_LOCALE ? undefined : hints.find((h) => h.locale === locale)
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
  // Dressed as the language menu and the toasts are (their classes: the page's CSS barely grows);
  // bottom left, where no toast comes (they are at the top on a phone, bottom right from sm up).
  return (
    <aside lang={hint.locale} aria-label={hint.text} className="fixed bottom-0 left-0 z-40 w-full p-4 sm:max-w-[420px]">
      <div className="flex items-center rounded-xl border border-stone-200 bg-white p-1 text-stone-900 shadow-xl dark:border-stone-700 dark:bg-stone-900 dark:text-stone-50">
        <a
          href={`${hint.href}${location.search}${location.hash}`}
          hrefLang={hint.locale}
          className="mr-auto block rounded-lg px-3 py-2 font-semibold underline hover:bg-stone-100 focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none dark:hover:bg-stone-800"
        >
          {hint.text}
        </a>
        <button
          type="button"
          onClick={close}
          aria-label={hint.close}
          className="grid size-9 place-items-center rounded-lg hover:bg-stone-100 focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none dark:hover:bg-stone-800"
        >
          <SvgIcon icon={X} className="size-4" />
        </button>
      </div>
    </aside>
  )
}
