import type { Content } from '../content'

export function Privacy({ content }: { content: Content['privacy'] }) {
  const headingId = `${content.id}-heading`
  return (
    <section id={content.id} aria-labelledby={headingId} className="mx-auto max-w-3xl scroll-mt-6 px-5 pb-20 sm:px-8">
      <h2 id={headingId} className="text-2xl font-bold text-stone-900 dark:text-stone-50">
        {content.heading}
      </h2>
      {content.paragraphs.map((paragraph) => (
        <p key={paragraph} className="mt-4 text-pretty text-stone-700 dark:text-stone-300">
          {paragraph}
        </p>
      ))}
    </section>
  )
}
