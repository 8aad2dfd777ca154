import { Icon } from '../components/icons'
import { SectionHeading } from '../components/section-heading'
import type { Content } from '../content'

export function WhyChoose({ content }: { content: Content['whyChoose'] }) {
  const headingId = `${content.id}-heading`
  return (
    <section id={content.id} aria-labelledby={headingId} className="mx-auto max-w-6xl px-5 py-20 sm:px-8 sm:py-28">
      <SectionHeading id={headingId} heading={content.heading} tagline={content.tagline} lead={content.lead} />
      <ul className="mt-14 grid gap-x-12 gap-y-10 md:grid-cols-2">
        {content.items.map((item) => (
          <li key={item.title} className="flex gap-5">
            <span className="grid size-12 shrink-0 place-items-center rounded-2xl bg-stone-900 text-amber-300 dark:bg-amber-300 dark:text-stone-900">
              <Icon name={item.icon} className="size-6" />
            </span>
            <div>
              <h3 className="text-lg font-semibold text-stone-900 dark:text-stone-50">{item.title}</h3>
              <p className="mt-1 text-stone-700 dark:text-stone-300">{item.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}
