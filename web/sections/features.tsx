import { IconCard } from '../components/icon-card'
import { SectionHeading } from '../components/section-heading'
import type { Content } from '../content'

export function Features({ content }: { content: Content['features'] }) {
  const headingId = `${content.id}-heading`
  return (
    <section id={content.id} aria-labelledby={headingId} className="mx-auto max-w-6xl px-5 py-20 sm:px-8 sm:py-28">
      <SectionHeading id={headingId} heading={content.heading} tagline={content.tagline} lead={content.lead} />
      <ul className="mt-10 grid gap-4 sm:mt-14 sm:gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {content.items.map((card, i) => (
          // Seven cards: the last one spans the row on wide screens instead of standing alone.
          <IconCard key={card.title} card={card} className={i === content.items.length - 1 ? 'lg:col-span-3' : undefined} />
        ))}
      </ul>
    </section>
  )
}
