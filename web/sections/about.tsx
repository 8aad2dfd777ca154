import { CircleCheck } from 'lucide'
import { SvgIcon } from '../components/svg-icon'
import { SectionHeading } from '../components/section-heading'
import type { Content } from '../content'

export function About({ content }: { content: Content['about'] }) {
  const headingId = `${content.id}-heading`
  const profileId = `${content.id}-profile`
  return (
    <section id={content.id} aria-labelledby={headingId} className="mx-auto max-w-6xl px-5 py-20 sm:px-8 sm:py-28">
      <div className="grid gap-12 lg:grid-cols-[1.2fr_1fr] lg:items-center">
        <div>
          <SectionHeading id={headingId} heading={content.heading} tagline={content.tagline} align="start" />
          {content.paragraphs.map((paragraph) => (
            <p key={paragraph} className="mt-5 text-lg text-pretty text-stone-700 dark:text-stone-300">
              {paragraph}
            </p>
          ))}
        </div>
        <div
          aria-labelledby={profileId}
          role="group"
          className="rounded-3xl border border-brand-200 bg-brand-50 p-6 sm:p-8 dark:border-brand-900 dark:bg-brand-950"
        >
          <h3 id={profileId} className="text-lg font-semibold text-stone-900 dark:text-stone-50">
            {content.profile.heading}
          </h3>
          <ul className="mt-4 grid gap-4">
            {content.profile.items.map((item) => (
              <li key={item.title} className="flex gap-3">
                <SvgIcon icon={CircleCheck} className="mt-0.5 size-5 shrink-0 text-brand-700 dark:text-brand-300" />
                <span>
                  <span className="block font-semibold text-stone-900 dark:text-stone-50">{item.title}</span>
                  <span className="block text-stone-700 dark:text-stone-300">{item.text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  )
}
