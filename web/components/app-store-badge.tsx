import { siApple } from 'simple-icons'
import type { Content } from '../content'
import { cn } from '../lib/cn'

/**
 * A link styled as Apple's store badge. Before launch it leads to the waitlist: a plain anchor, so
 * it works before hydration, and CSS (`scroll-behavior`) makes the jump smooth.
 */
export function AppStoreBadge({ content, href, className }: { content: Content['hero']['badge']; href: string; className?: string }) {
  return (
    <a
      href={href}
      aria-label={content.ariaLabel}
      className={cn(
        'inline-flex h-14 items-center gap-3 rounded-xl border border-white/25 bg-black px-5 text-white shadow-lg transition hover:bg-stone-900 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-brand-300',
        className,
      )}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" className="size-7 fill-current">
        <path d={siApple.path} />
      </svg>
      <span className="flex flex-col items-start leading-none">
        <span className="text-[11px] font-medium tracking-wide">{content.smallText}</span>{' '}
        <span className="text-[22px] font-semibold tracking-tight">{content.largeText}</span>
      </span>
    </a>
  )
}
