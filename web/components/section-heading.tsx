import { cn } from '../lib/cn'

/** Eyebrow, heading and lead of a section; the heading's id labels the section for screen readers. */
export function SectionHeading({
  id,
  eyebrow,
  heading,
  lead,
  className,
}: {
  id: string
  eyebrow: string
  heading: string
  lead?: string
  className?: string
}) {
  return (
    <div className={cn('mx-auto max-w-2xl text-center', className)}>
      <p className="text-sm font-semibold tracking-wide text-brand-800 dark:text-brand-300 uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-bold tracking-tight text-balance text-stone-900 dark:text-stone-50 sm:text-4xl">
        {heading}
      </h2>
      {lead ? <p className="mt-4 text-lg text-pretty text-stone-700 dark:text-stone-300">{lead}</p> : null}
    </div>
  )
}
