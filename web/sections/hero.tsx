import { STORE_SLOTS, WAITING_SLOT } from '../../contract/paths'
import { PhoneMockup } from '../components/phone-mockup'
import { StoreBadge } from '../components/store-badge'
import type { Content } from '../content'
import { site } from '../site'

/** The Google Play badge as the hero shows it, beside the App Store's: the server writes it into the page. */
export function PlayBadge({ content, waitlistId }: { content: Content['hero']; waitlistId: string }) {
  return <StoreBadge store="google-play" words={content.playBadge} href={`#${waitlistId}`} />
}

export function Hero({ content, waitlistId }: { content: Content['hero']; waitlistId: string }) {
  return (
    <section aria-labelledby="hero-heading" className="relative overflow-hidden bg-stone-950 text-white">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-[radial-gradient(60rem_40rem_at_85%_10%,rgba(234,88,12,0.35),transparent_60%),radial-gradient(40rem_30rem_at_0%_100%,rgba(245,158,11,0.18),transparent_60%)]"
      />
      <div className="relative mx-auto max-w-6xl px-5 sm:px-8">
        <div className="grid items-center gap-14 pt-10 pb-20 lg:grid-cols-[1.15fr_1fr] lg:pt-16 lg:pb-28">
          <div>
            <p className="inline-flex rounded-full border border-white/20 bg-white/10 px-3 py-1 text-sm font-medium text-amber-200">
              {site.formAction ? STORE_SLOTS.eyebrow : content.eyebrow}
            </p>
            <h1 id="hero-heading" className="mt-6 text-4xl leading-tight font-extrabold tracking-tight text-balance sm:text-6xl">
              {content.headline}
            </h1>
            <p className="mt-6 max-w-xl text-lg text-pretty text-stone-300 sm:text-xl">{content.lead}</p>
            <div className="mt-9 flex flex-col items-start gap-4">
              {/* Until launch each badge leads to the waitlist. Google Play's is written in by our server
                  beside the App Store's when it has PLAY_STORE_URL (server/http/landing-page.ts). */}
              <div className="flex flex-wrap gap-3">
                <StoreBadge store="app-store" words={content.badge} href={`#${waitlistId}`} />
                {site.formAction ? STORE_SLOTS.playBadge : null}
              </div>
              {/* Our server writes into each page it sends how many wait (server/http/landing-page.ts), or
                  this note: two lines kept for either (the note takes two on a phone), so the hero is the
                  same height whatever it says. */}
              <p className="min-h-[2lh] text-sm text-stone-400">{site.formAction ? WAITING_SLOT : content.note}</p>
            </div>
          </div>
          <PhoneMockup content={content.phone} />
        </div>
      </div>
    </section>
  )
}
