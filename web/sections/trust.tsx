import { IconCard } from '../components/icon-card'
import { SectionHeading } from '../components/section-heading'
import { StarRating } from '../components/star-rating'
import type { Content } from '../content'

export function Trust({ content }: { content: Content['trust'] }) {
  const headingId = `${content.id}-heading`
  const { testimonial } = content
  return (
    <section id={content.id} aria-labelledby={headingId} className="bg-brand-50 dark:bg-brand-950 py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-5 sm:px-8">
        <SectionHeading id={headingId} heading={content.heading} tagline={content.tagline} lead={content.lead} />
        <div className="mt-14 grid gap-8 lg:grid-cols-[1.4fr_1fr]">
          <ul className="grid gap-4 sm:grid-cols-2 sm:gap-5">
            {content.items.map((card, i) => (
              <IconCard
                key={card.title}
                card={card}
                className={i === content.items.length - 1 && content.items.length % 2 === 1 ? 'sm:col-span-2' : undefined}
              />
            ))}
          </ul>
          <figure className="flex flex-col justify-between rounded-3xl bg-stone-900 p-8 text-white shadow-xl">
            <div>
              <StarRating rating={testimonial.rating} label={testimonial.ratingLabel} />
              <blockquote className="mt-6 text-xl leading-relaxed text-pretty">“{testimonial.quote}”</blockquote>
            </div>
            <figcaption className="mt-8 flex items-center gap-4">
              <span aria-hidden="true" className="grid size-12 place-items-center rounded-full bg-brand-700 font-bold">
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
