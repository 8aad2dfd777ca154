import { LoaderCircle } from 'lucide-react'
import { FORM_TOKEN_SLOT } from '../../contract/paths'
import { type FormEvent, useRef, useState } from 'react'
import { Button } from '../components/ui/button'
import { Input } from '../components/ui/input'
import { cn } from '../lib/cn'
import type { Content } from '../content'
import { readAttribution } from '../lib/attribution'
import { toast, WAITLIST_TOAST_MS } from '../lib/toast-store'
import { joinWaitlist } from '../lib/waitlist-client'
import { site } from '../site'

export function Waitlist({ content, privacyId }: { content: Content['waitlist']; privacyId: string }) {
  const [pending, setPending] = useState(false)
  // A ref, not the state: two submits in one frame both see the state before it re-renders.
  const inFlight = useRef(false)
  const headingId = `${content.id}-heading`

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (inFlight.current) return
    const form = event.currentTarget
    const fields = new FormData(form)
    const thank = () => {
      form.reset()
      toast({ ...content.success, duration: WAITLIST_TOAST_MS })
    }
    // docs/protocol.md, "The browser side": a filled honeypot is a bot's; it is thanked, nothing sent.
    if (fields.get('website')) return thank()
    const email = String(fields.get('email') ?? '')
    inFlight.current = true
    setPending(true)
    const result = await joinWaitlist(email, readAttribution(window.location.href, document.referrer))
    inFlight.current = false
    setPending(false)
    // docs/requirements.md#the-waitlist-form: success resets the form; failure keeps what was typed.
    if (result.ok) thank()
    else toast({ ...content.failure, variant: 'destructive', duration: WAITLIST_TOAST_MS })
  }

  return (
    <section id={content.id} aria-labelledby={headingId} className="scroll-mt-6 px-5 py-20 sm:px-8 sm:py-28">
      <div className="relative mx-auto max-w-4xl overflow-hidden rounded-[2rem] bg-gradient-to-br from-brand-700 via-brand-800 to-stone-900 px-6 py-14 text-center text-white shadow-2xl sm:px-14 sm:py-20">
        <h2 id={headingId} className="text-3xl font-bold tracking-tight text-balance sm:text-5xl">
          {content.heading}
        </h2>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-pretty text-orange-50">{content.subtext}</p>
        {site.formAction ? <Outcomes id={content.id} outcomes={content.outcomes} /> : null}
        {/* Without JavaScript and without our server, the browser still checks the address (method
            "dialog" validates, then sends nothing) and the page says what is missing. */}
        <form
          method={site.formAction ? 'post' : 'dialog'}
          action={site.formAction}
          onSubmit={onSubmit}
          className="relative mx-auto mt-10 flex max-w-xl flex-col gap-3 sm:flex-row"
        >
          {/* The server writes a signed timestamp over the slot in every page it sends (server/http/landing-page.ts). */}
          {site.formAction ? <input type="hidden" name="token" defaultValue={FORM_TOKEN_SLOT} suppressHydrationWarning /> : null}
          <div aria-hidden="true" className="absolute -left-[9999px] size-px overflow-hidden">
            <label htmlFor="waitlist-website">{content.honeypotLabel}</label>
            <input id="waitlist-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
          </div>
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
        {site.formAction ? null : (
          <noscript>
            <p className="mx-auto mt-4 max-w-xl rounded-xl bg-white dark:bg-stone-900 px-4 py-3 font-semibold text-stone-900 dark:text-stone-50">
              {content.needsScript}
            </p>
          </noscript>
        )}
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

/**
 * The answers to the no-script post: each hidden until the server's redirect names it in the URL
 * (`/#waitlist-joined`), then shown by `:target`, with no script at all.
 */
function Outcomes({ id, outcomes }: { id: string; outcomes: Content['waitlist']['outcomes'] }) {
  return Object.entries(outcomes).map(([outcome, copy]) => (
    <div
      key={outcome}
      id={`${id}-${outcome}`}
      role="status"
      tabIndex={-1}
      className={cn(
        'mx-auto mt-8 hidden max-w-xl scroll-mt-24 rounded-2xl focus:outline-none border-l-4 bg-white dark:bg-stone-900 px-5 py-4 text-left text-stone-900 dark:text-stone-50 shadow-lg target:block',
        outcome === 'joined' ? 'border-emerald-600' : 'border-red-600',
      )}
    >
      <p className="font-semibold">{copy.title}</p>
      <p className="mt-1 text-stone-700 dark:text-stone-300">{copy.description}</p>
    </div>
  ))
}
