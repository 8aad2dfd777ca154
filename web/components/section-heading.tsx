import { cn } from '../lib/cn'

/**
 * A section's heading (the spec's name for it), its tagline and lead; the heading's id labels the
 * section for screen readers. `tone="dark"` for a section on a dark background in both schemes.
 */
export function SectionHeading({
  id,
  heading,
  tagline,
  lead,
  tone = 'auto',
  align = 'center',
  className,
}: {
  id: string
  heading: string
  tagline?: string | undefined
  lead?: string | undefined
  tone?: 'auto' | 'dark'
  align?: 'center' | 'start'
  className?: string
}) {
  const dark = tone === 'dark'
  return (
    <div className={cn(align === 'center' ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl', className)}>
      <h2
        id={id}
        className={cn(
          'text-3xl font-bold tracking-tight text-balance sm:text-4xl',
          dark ? 'text-white' : 'text-stone-900 dark:text-stone-50',
        )}
      >
        {heading}
      </h2>
      {tagline ? (
        <p
          className={cn(
            'mt-3 text-xl font-semibold text-balance sm:text-2xl',
            dark ? 'text-amber-300' : 'text-brand-800 dark:text-brand-300',
          )}
        >
          {tagline}
        </p>
      ) : null}
      {lead ? (
        <p className={cn('mt-4 text-lg text-pretty', dark ? 'text-stone-300' : 'text-stone-700 dark:text-stone-300')}>{lead}</p>
      ) : null}
    </div>
  )
}
