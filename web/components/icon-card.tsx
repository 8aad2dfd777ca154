import type { Card } from '../content'
import { cn } from '../lib/cn'
import { Icon } from './icons'

/** A card of the grids: an icon, a title and one or two sentences. */
export function IconCard({ card, className, headingLevel = 'h3' }: { card: Card; className?: string; headingLevel?: 'h3' | 'h4' }) {
  const Heading = headingLevel
  return (
    <li className={cn('rounded-2xl border border-stone-200 bg-white p-6 shadow-sm', className)}>
      <span className="grid size-11 place-items-center rounded-xl bg-brand-100 text-brand-800">
        <Icon name={card.icon} className="size-6" />
      </span>
      <Heading className="mt-4 text-lg font-semibold text-stone-900">{card.title}</Heading>
      <p className="mt-2 text-stone-700">{card.text}</p>
    </li>
  )
}
