import { PawPrint } from 'lucide-react'
import type { Content } from '../content'

/**
 * The slim bar that stays at the top while the page scrolls, on a phone the shortest way to the
 * form. A plain link (no script): CSS scrolls it smoothly, and `scroll-padding-top` keeps what it
 * jumps to clear of the bar. In the flow from the first paint: it shifts nothing.
 */
export function SiteHeader({ content, waitlistId }: { content: Content['header']; waitlistId: string }) {
  return (
    // Exactly h-14 tall (the line under it is a shadow, not a border): web/styles.css keeps what a
    // link jumps to that far from the top.
    <header className="sticky top-0 z-40 bg-stone-950 text-white shadow-[0_1px_0_rgb(255_255_255/0.1)]">
      <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-4 px-5 sm:px-8">
        <a
          href="/"
          aria-label={content.label}
          className="flex items-center gap-2 text-lg font-bold focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none"
        >
          <span className="grid size-8 place-items-center rounded-lg bg-brand-600">
            <PawPrint aria-hidden="true" className="size-5" />
          </span>
          {content.brand}
        </a>
        <a
          href={`#${waitlistId}`}
          className="inline-flex h-9 items-center rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none"
        >
          {content.join}
        </a>
      </div>
    </header>
  )
}
