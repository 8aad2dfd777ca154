import { DogPicture } from '../components/dog-art'
import { Icon } from '../components/icons'
import { SectionHeading } from '../components/section-heading'
import type { Content } from '../content'

export function HowItWorks({ content }: { content: Content['howItWorks'] }) {
  const headingId = `${content.id}-heading`
  return (
    <section id={content.id} aria-labelledby={headingId} className="bg-stone-900 py-20 text-white sm:py-28">
      <div className="mx-auto max-w-6xl px-5 sm:px-8">
        <SectionHeading id={headingId} heading={content.heading} tagline={content.tagline} lead={content.lead} tone="dark" />
        <ol className="mt-14 grid gap-6 md:grid-cols-3">
          {content.steps.map((step, i) => (
            <li key={step.title} className="relative rounded-2xl border border-white/10 bg-white/5 p-7">
              <div className="flex items-center justify-between gap-4">
                <span className="flex items-center gap-3">
                  <span className="grid size-12 place-items-center rounded-full bg-brand-600 text-xl font-bold text-white">{i + 1}</span>
                  <Icon name={step.icon} className="size-7 text-amber-300" />
                </span>
                <DogPicture drawing={step.drawing} size={64} className="size-16" />
              </div>
              <h3 className="mt-5 text-xl font-semibold">
                {/* One text node: Chromium drops the spaces between several ("Step1:"). */}
                <span className="sr-only">{`${content.stepLabel} ${i + 1}: `}</span>
                {step.title}
              </h3>
              <p className="mt-2 text-stone-300">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  )
}
