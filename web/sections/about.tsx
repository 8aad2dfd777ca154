import { SectionHeading } from '../components/section-heading'
import type { Content } from '../content'

export function About({ content }: { content: Content['about'] }) {
  const headingId = `${content.id}-heading`
  return (
    <section id={content.id} aria-labelledby={headingId} className="mx-auto max-w-6xl px-5 py-20 sm:px-8 sm:py-28">
      <div className="grid gap-12 lg:grid-cols-[1.3fr_1fr] lg:items-center">
        <div>
          <SectionHeading id={headingId} heading={content.heading} tagline={content.tagline} align="start" />
          {content.paragraphs.map((paragraph) => (
            <p key={paragraph} className="mt-5 text-lg text-pretty text-stone-700 dark:text-stone-300">
              {paragraph}
            </p>
          ))}
        </div>
        <ul className="grid gap-4 sm:grid-cols-3 lg:grid-cols-1">
          {content.facts.map((fact) => (
            <li key={fact.label} className="rounded-2xl border border-brand-200 dark:border-brand-900 bg-brand-50 dark:bg-brand-950 p-6">
              <strong className="block text-3xl font-extrabold text-brand-800 dark:text-brand-300">{fact.value}</strong>
              <span className="mt-1 block text-stone-700 dark:text-stone-300">{fact.label}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
