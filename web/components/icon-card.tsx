import type { Card } from '../content'
import { cn } from '../lib/cn'
import { Icon } from './icons'

/**
 * A card of the grids: an icon, a title and one or two sentences; icon beside the text on phones.
 * A word longer than its line breaks rather than widen the card past a 320 px screen; the copy
 * marks where its long compounds may (a soft hyphen: "Gesundheits\u00adnachweise").
 */
export function IconCard({ card, muted = false, className }: { card: Card; muted?: boolean; className?: string }) {
  return (
    <li
      className={cn(
        'flex gap-4 rounded-2xl border border-stone-200 dark:border-stone-800 p-5 shadow-sm wrap-anywhere sm:block sm:p-6',
        muted ? 'bg-stone-50 dark:bg-stone-900' : 'bg-white dark:bg-stone-900',
        className,
      )}
    >
      {/* A tile that stands out from the card at 3:1 or more in both schemes (non-text contrast). */}
      <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-brand-700 text-white dark:bg-brand-600">
        <Icon name={card.icon} className="size-6" />
      </span>
      <div>
        <h3 className="text-lg font-semibold text-stone-900 dark:text-stone-50 sm:mt-4">{card.title}</h3>
        <p className="mt-1 text-stone-700 dark:text-stone-300 sm:mt-2">{card.text}</p>
      </div>
    </li>
  )
}
