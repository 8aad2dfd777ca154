import { IconCard } from '../components/icon-card'
import { SectionHeading } from '../components/section-heading'
import { StarRating } from '../components/star-rating'
import type { Content } from '../content'
import { cn } from '../lib/cn'

/** A claim's columns: a third of the row for the first three on wide screens, half for the rest; the last across on tablets. */
const spans = (i: number, count: number) => (i < 3 ? 'lg:col-span-2' : cn('lg:col-span-3', i === count - 1 && 'sm:col-span-2'))

/**
 * The five trust claims, then the testimonial as a wide card under them: on wide screens three
 * claims, then two, then the quote across the grid; on tablets two by two, the fifth and the quote
 * across. Every card is as tall as its row's words, so none stands half empty.
 */
export function Trust({ content }: { content: Content['trust'] }) {
  const headingId = `${content.id}-heading`
  const { testimonial } = content
  return (
    <section id={content.id} aria-labelledby={headingId} className="bg-brand-50 py-20 sm:py-28 dark:bg-brand-950">
      <div className="mx-auto max-w-6xl px-5 sm:px-8">
        <SectionHeading id={headingId} heading={content.heading} tagline={content.tagline} lead={content.lead} />
        <div className="mt-14 grid gap-4 sm:grid-cols-2 sm:gap-5 lg:grid-cols-6">
          <ul className="contents">
            {content.items.map((card, i) => (
              <IconCard key={card.title} card={card} className={spans(i, content.items.length)} />
            ))}
          </ul>
          <figure className="flex flex-col gap-5 rounded-2xl bg-stone-900 p-6 text-white shadow-xl wrap-anywhere ring-1 ring-white/10 sm:col-span-2 sm:p-8 lg:col-span-6 lg:flex-row lg:items-center lg:gap-12">
            <div className="lg:flex-1">
              <StarRating rating={testimonial.rating} label={testimonial.ratingLabel} />
              <blockquote className="mt-4 text-lg leading-relaxed text-pretty lg:text-xl">“{testimonial.quote}”</blockquote>
            </div>
            <figcaption className="flex items-center gap-3 lg:shrink-0">
              <span aria-hidden="true" className="grid size-11 shrink-0 place-items-center rounded-full bg-brand-700 font-bold">
                {testimonial.initials}
              </span>
              <span>
                <span className="block font-semibold">{testimonial.name}</span>
                <span className="block text-sm text-stone-300">{testimonial.role}</span>
              </span>
            </figcaption>
          </figure>
        </div>
      </div>
    </section>
  )
}
