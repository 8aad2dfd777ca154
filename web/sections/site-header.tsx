import { ChevronDown, Languages as LanguagesIcon, PawPrint } from 'lucide'
import { SvgIcon } from '../components/svg-icon'
import type { Content, Languages } from '../content'

/**
 * The slim bar that stays at the top while the page scrolls, on a phone the shortest way to the
 * form. A plain link (no script): CSS scrolls it smoothly, and `scroll-padding-top` keeps what it
 * jumps to clear of the bar. In the flow from the first paint: it shifts nothing.
 */
export function SiteHeader({ content, waitlistId }: { content: Content['header']; waitlistId: string }) {
  const home = content.languages.links.find((link) => link.locale === content.languages.current)?.href ?? '/'
  return (
    // Exactly h-14 tall (the line under it is a shadow, not a border): web/styles.css keeps what a
    // link jumps to that far from the top.
    <header className="sticky top-0 z-40 bg-stone-950 text-white shadow-[0_1px_0_rgb(255_255_255/0.1)]">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-5 sm:gap-4 sm:px-8">
        <a
          href={home}
          aria-label={content.label}
          className="mr-auto flex items-center gap-2 text-lg font-bold focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none"
        >
          <span className="grid size-8 place-items-center rounded-lg bg-brand-600">
            <SvgIcon icon={PawPrint} className="size-5" />
          </span>
          {content.brand}
        </a>
        {/* On a 320 px phone a long label ("Join the waitlist") takes two lines rather than push the
            language switcher off the screen. */}
        <a
          href={`#${waitlistId}`}
          className="inline-flex h-9 items-center rounded-lg bg-brand-700 px-3 text-center text-sm leading-tight font-semibold text-white sm:px-4 hover:bg-brand-800 focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none"
        >
          {content.join}
        </a>
        <LanguageSwitcher languages={content.languages} />
      </div>
    </header>
  )
}

/**
 * The other languages, as plain links in a disclosure that needs no script: each language named
 * in itself, with its `lang` and `hreflang`. No flags (a language is not a country), and no
 * redirect by the browser's language: people choose, and crawlers see every page.
 */
function LanguageSwitcher({ languages }: { languages: Languages }) {
  const current = languages.links.find((link) => link.locale === languages.current)
  return (
    <details className="group relative">
      <summary className="flex h-9 cursor-pointer list-none items-center gap-1 rounded-lg px-2 text-sm font-semibold text-stone-200 hover:text-white focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none [&::-webkit-details-marker]:hidden">
        <SvgIcon icon={LanguagesIcon} className="size-4" />
        <span className="sr-only">{languages.label}: </span>
        {/* On a phone the icon alone (the name stays in the accessible name): the way to the form
            and the switcher fit a 360 px screen in every language. */}
        <span lang={languages.current} className="max-sm:sr-only">
          {current?.name}
        </span>
        <SvgIcon icon={ChevronDown} className="hidden size-4 transition-transform group-open:rotate-180 sm:block" />
      </summary>
      <ul
        aria-label={languages.label}
        className="absolute right-0 mt-2 w-44 rounded-xl border border-stone-200 bg-white p-1 text-stone-900 shadow-xl dark:border-stone-700 dark:bg-stone-900 dark:text-stone-50"
      >
        {languages.links.map((link) => (
          <li key={link.locale}>
            <a
              href={link.href}
              lang={link.locale}
              hrefLang={link.locale}
              aria-current={link.locale === languages.current ? 'page' : undefined}
              className="block rounded-lg px-3 py-2 text-sm hover:bg-stone-100 focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none aria-[current=page]:font-bold dark:hover:bg-stone-800"
            >
              {link.name}
            </a>
          </li>
        ))}
      </ul>
    </details>
  )
}
