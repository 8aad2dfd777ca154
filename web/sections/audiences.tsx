import { IconCard } from '../components/icon-card'
import { SectionHeading } from '../components/section-heading'
import type { Content } from '../content'

export function Audiences({ content }: { content: Content['audiences'] }) {
  const headingId = `${content.id}-heading`
  return (
    <section id={content.id} aria-labelledby={headingId} className="bg-white dark:bg-stone-900 py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-5 sm:px-8">
        <SectionHeading id={headingId} heading={content.heading} tagline={content.tagline} lead={content.lead} />
        <ul className="mt-10 grid gap-4 sm:mt-14 sm:gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {content.items.map((card) => (
            <IconCard key={card.title} card={card} muted />
          ))}
        </ul>
      </div>
    </section>
  )
}
