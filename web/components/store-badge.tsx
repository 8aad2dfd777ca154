import { siApple, siGoogleplay } from 'simple-icons'
import { cn } from '../lib/cn'

/** A store's words on its badge: the small line, the store's name, and what the link does (its accessible name). */
export interface StoreBadgeWords {
  small: string
  large: string
  label: string
}

const LOGOS = { 'app-store': siApple.path, 'google-play': siGoogleplay.path } as const

/**
 * A link styled as a store's badge (the App Store's or Google Play's): black, the store's mark, its
 * two lines. A plain anchor, so it works without any script.
 */
export function StoreBadge({
  store,
  words,
  href,
  className,
}: {
  store: keyof typeof LOGOS
  words: StoreBadgeWords
  href: string
  className?: string
}) {
  return (
    <a
      href={href}
      aria-label={words.label}
      className={cn(
        'inline-flex h-14 items-center gap-3 rounded-xl border border-white/25 bg-black px-5 text-white shadow-lg transition hover:bg-stone-900 focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none dark:border-white/40',
        className,
      )}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" className="size-7 shrink-0 fill-current">
        <path d={LOGOS[store]} />
      </svg>
      <span className="flex flex-col items-start leading-none">
        <span className="text-[11px] font-medium tracking-wide">{words.small}</span>{' '}
        <span className="text-[22px] font-semibold tracking-tight whitespace-nowrap">{words.large}</span>
      </span>
    </a>
  )
}
