// The page an app link (/app/<code>) opens in a browser, where the app is not installed (where it is,
// the phone hands the link to the app and no page is asked for): the store for the phone it was
// opened on, both elsewhere, and on every phone the code for an app that cannot read the link.
// Rendered by the server through the build's render module (entry-visitor.tsx); no script needed.
import { Copy } from 'lucide'
import type { AppPageView } from '../../contract/app'
import type { AppLinkGone } from '../../contract/visitor'
import { StoreBadge } from '../components/store-badge'
import { SvgIcon } from '../components/svg-icon'
import { buttonVariants } from '../components/ui/button'
import { cn } from '../lib/cn'
import type { VisitorContent } from './content'
import { Frame } from './page'

const text = 'mt-3 text-lg text-stone-700 dark:text-stone-300'

export function AppLinkPage({ view, content, brand }: { view: AppPageView; content: VisitorContent; brand: string }) {
  const copy = content.appLink
  const stores = [
    view.appStoreUrl === null ? null : <StoreBadge key="app-store" store="app-store" words={copy.appStore} href={view.appStoreUrl} />,
    view.playStoreUrl === null ? null : (
      <StoreBadge key="google-play" store="google-play" words={copy.googlePlay} href={view.playStoreUrl} />
    ),
  ].filter(Boolean)
  return (
    <Frame brand={brand}>
      <h1 className="text-3xl font-extrabold tracking-tight text-stone-900 dark:text-stone-50">{copy.heading}</h1>
      <p className={text}>{copy.steps[view.device]}</p>
      {stores.length > 0 ? (
        <div className="mt-6 flex flex-wrap gap-3">{stores}</div>
      ) : (
        <p className="mt-6 rounded-xl border-l-4 border-brand-600 bg-white px-4 py-3 font-medium text-stone-900 shadow-sm dark:bg-stone-900 dark:text-stone-50">
          {copy.noStore}
        </p>
      )}
      {/* On every phone: on Android the Play link carries the code too, but its install referrer is
          lost when the app is installed another way (issue 49). */}
      <section
        aria-labelledby="app-code-label"
        className="mt-8 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6 dark:border-stone-800 dark:bg-stone-900"
      >
        <h2 id="app-code-label" className="text-lg font-semibold text-stone-900 dark:text-stone-50">
          {copy.codeLabel}
        </h2>
        <p className="mt-1 text-stone-700 dark:text-stone-300">{copy.codeHint}</p>
        {/* One line on a 320 px phone: 22 characters of monospace at 16 px. */}
        <p
          aria-labelledby="app-code-label"
          className="mt-3 rounded-xl border border-stone-300 bg-stone-50 px-3 py-3 font-mono text-base break-all text-stone-900 select-all sm:px-4 sm:text-lg dark:border-stone-600 dark:bg-stone-950 dark:text-stone-50"
        >
          {view.code}
        </p>
        <button
          type="button"
          hidden
          data-copy={view.code}
          data-done={copy.copied}
          data-status="app-code-status"
          className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'mt-3')}
        >
          <SvgIcon icon={Copy} className="size-4" />
          {copy.copy}
        </button>
        <p id="app-code-status" role="status" className="mt-2 min-h-5 text-sm text-stone-700 dark:text-stone-300" />
      </section>
    </Frame>
  )
}

export function AppLinkGonePage({ why, content, brand }: { why: AppLinkGone; content: VisitorContent; brand: string }) {
  const copy = content.appLink.gone[why]
  return (
    <Frame brand={brand}>
      <h1 className="text-3xl font-extrabold tracking-tight text-stone-900 dark:text-stone-50">{copy.heading}</h1>
      <p className={text}>{copy.text}</p>
      <a href="/" className={cn(buttonVariants(), 'mt-6')}>
        {content.home}
      </a>
    </Frame>
  )
}
