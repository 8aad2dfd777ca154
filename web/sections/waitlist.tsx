import { LoaderCircle } from 'lucide-react'
import { type FormEvent, useRef, useState } from 'react'
import { Button } from '../components/ui/button'
import { Input } from '../components/ui/input'
import type { Content } from '../content'
import { readAttribution } from '../lib/attribution'
import { toast, WAITLIST_TOAST_MS } from '../lib/toast-store'
import { joinWaitlist } from '../lib/waitlist-client'

export function Waitlist({ content, privacyId }: { content: Content['waitlist']; privacyId: string }) {
  const [pending, setPending] = useState(false)
  // A ref, not the state: two submits in one frame both see the state before it re-renders.
  const inFlight = useRef(false)
  const headingId = `${content.id}-heading`

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (inFlight.current) return
    const form = event.currentTarget
    const email = String(new FormData(form).get('email') ?? '')
    inFlight.current = true
    setPending(true)
    const result = await joinWaitlist(email, readAttribution(window.location.href, document.referrer))
    inFlight.current = false
    setPending(false)
    // SPEC §4: success resets the form; failure keeps what was typed so the visitor can retry.
    if (result.ok) {
      form.reset()
      toast({ ...content.success, duration: WAITLIST_TOAST_MS })
    } else {
      toast({ ...content.failure, variant: 'destructive', duration: WAITLIST_TOAST_MS })
    }
  }

  return (
    <section id={content.id} aria-labelledby={headingId} className="scroll-mt-6 px-5 py-20 sm:px-8 sm:py-28">
      <div className="relative mx-auto max-w-4xl overflow-hidden rounded-[2rem] bg-gradient-to-br from-brand-700 via-brand-800 to-stone-900 px-6 py-14 text-center text-white shadow-2xl sm:px-14 sm:py-20">
        <h2 id={headingId} className="text-3xl font-bold tracking-tight text-balance sm:text-5xl">
          {content.heading}
        </h2>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-pretty text-orange-50">{content.subtext}</p>
        <form method="post" onSubmit={onSubmit} className="mx-auto mt-10 flex max-w-xl flex-col gap-3 sm:flex-row">
          <label htmlFor="waitlist-email" className="sr-only">
            {content.emailLabel}
          </label>
          <Input
            id="waitlist-email"
            name="email"
            type="email"
            required
            autoComplete="email"
            inputMode="email"
            placeholder={content.emailPlaceholder}
            className="sm:flex-1"
          />
          <Button
            type="submit"
            variant="inverse"
            aria-disabled={pending || undefined}
            className="aria-disabled:cursor-progress aria-disabled:opacity-80"
          >
            {pending ? <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> : null}
            {pending ? content.submitting : content.submit}
          </Button>
        </form>
        <p className="mx-auto mt-6 max-w-xl text-sm text-pretty text-orange-50">
          {content.privacyNote}{' '}
          <a href={`#${privacyId}`} className="font-semibold text-white underline underline-offset-4">
            {content.privacyLink}
          </a>
        </p>
      </div>
    </section>
  )
}
