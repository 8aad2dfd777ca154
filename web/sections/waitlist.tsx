import { LoaderCircle } from 'lucide'
import { SvgIcon } from '../components/svg-icon'
import { LOCALE_COLUMN, type Locale } from '../../contract/locales'
import { FORM_TOKEN_SLOT, STORE_SLOTS } from '../../contract/paths'
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import { MatchedPair } from '../components/dog-art'
import { Button } from '../components/ui/button'
import { Input } from '../components/ui/input'
import { cn } from '../lib/cn'
import type { Content } from '../content'
import { readAttribution } from '../lib/attribution'
import { toast, WAITLIST_TOAST_MS } from '../lib/toast-store'
import { loadTypoCheck } from '../lib/typo-hint'
import { joinWaitlist } from '../lib/waitlist-client'
import { site } from '../site'

/** While typing, the hint waits for a pause and a domain that looks whole (`@name.tld`). */
const TYPO_PAUSE_MS = 600
/** The hint's id: not `waitlist-…`, the no-script outcomes' namespace (`/#waitlist-joined`). */
const TYPO_HINT_ID = 'email-typo-hint'
const WHOLE_DOMAIN = /@[^@\s]+\.[a-z]{2,}$/i

/** The words the form needs in the browser: all the island carries (web/islands.tsx). */
export type WaitlistFormWords = Pick<
  Content['waitlist'],
  'emailLabel' | 'emailPlaceholder' | 'submit' | 'submitting' | 'success' | 'failure' | 'honeypotLabel' | 'typo'
>

/**
 * The waitlist section, static: its heading, the no-script outcomes (shown by CSS alone), the note
 * for pages without our server, and the privacy note; the form comes in as `children`, an island.
 */
export function Waitlist({ content, privacyId, children }: { content: Content['waitlist']; privacyId: string; children: ReactNode }) {
  const headingId = `${content.id}-heading`
  return (
    <section id={content.id} aria-labelledby={headingId} className="px-5 py-20 sm:px-8 sm:py-28">
      <div className="relative mx-auto max-w-4xl overflow-hidden rounded-[2rem] bg-gradient-to-br from-brand-700 via-brand-800 to-stone-900 px-6 py-14 text-center text-white shadow-2xl sm:px-14 sm:py-20">
        <MatchedPair className="mb-6" />
        <h2 id={headingId} className="text-3xl font-bold tracking-tight text-balance sm:text-5xl">
          {content.heading}
        </h2>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-pretty text-orange-50">
          {site.formAction ? STORE_SLOTS.subtext : content.subtext}
        </p>
        {site.formAction ? <Outcomes id={content.id} outcomes={content.outcomes} /> : null}
        {children}
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

/** The form: the island of the waitlist section. */
export function WaitlistForm({ content, locale }: { content: WaitlistFormWords; locale: Locale }) {
  const [pending, setPending] = useState(false)
  // The address the hint suggests, if any. The browser's own validation stays the only rule.
  const [suggestion, setSuggestion] = useState<string | null>(null)
  const email = useRef<HTMLInputElement>(null)
  const typoTimer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(typoTimer.current), [])
  // A likely misspelt common domain (gmial.com → gmail.com): on leaving the field, or after a
  // pause in typing once the domain looks whole; shown only if the field still holds that value.
  const checkTypo = (value: string, pauseMs: number) => {
    window.clearTimeout(typoTimer.current)
    setSuggestion(null)
    if (pauseMs > 0 && !WHOLE_DOMAIN.test(value.trim())) return
    typoTimer.current = window.setTimeout(() => {
      loadTypoCheck().then(
        (check) => {
          if (email.current?.value === value) setSuggestion(check(value))
        },
        () => undefined,
      )
    }, pauseMs)
  }
  // A ref, not the state: two submits in one frame both see the state before it re-renders.
  const inFlight = useRef(false)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (inFlight.current) return
    const form = event.currentTarget
    const fields = new FormData(form)
    const thank = () => {
      form.reset()
      window.clearTimeout(typoTimer.current)
      setSuggestion(null)
      toast({ ...content.success, duration: WAITLIST_TOAST_MS })
    }
    // docs/protocol.md, "The browser side": a filled honeypot is a bot's; it is thanked, nothing sent.
    if (fields.get('website')) return thank()
    const email = String(fields.get('email') ?? '')
    inFlight.current = true
    setPending(true)
    // The sign-up keeps the page's language: its mails and its own page speak it.
    const result = await joinWaitlist(email, { ...readAttribution(window.location.href, document.referrer), [LOCALE_COLUMN]: locale })
    inFlight.current = false
    setPending(false)
    // docs/requirements.md#the-waitlist-form: success resets the form; failure keeps what was typed.
    if (result.ok) thank()
    else toast({ ...content.failure, variant: 'destructive', duration: WAITLIST_TOAST_MS })
  }

  return (
    <>
      {/* Without JavaScript and without our server, the browser still checks the address (method
      "dialog" validates, then sends nothing) and the page says what is missing. */}
      <form
        method={site.formAction ? 'post' : 'dialog'}
        action={site.formAction}
        onSubmit={onSubmit}
        className="relative mx-auto mt-10 flex max-w-xl flex-col gap-3 sm:flex-row sm:flex-wrap"
      >
        {/* The server writes a signed timestamp over the slot in every page it sends (server/http/landing-page.ts). */}
        {site.formAction ? <input type="hidden" name="token" defaultValue={FORM_TOKEN_SLOT} suppressHydrationWarning /> : null}
        {site.formAction ? <input type="hidden" name={LOCALE_COLUMN} value={locale} /> : null}
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
          ref={email}
          aria-describedby={TYPO_HINT_ID}
          onFocus={() => void loadTypoCheck().catch(() => undefined)}
          onBlur={(event) => {
            // Focus moving to the hint's own button (a tap on it) must not take the button away.
            if (event.relatedTarget instanceof Node && document.getElementById(TYPO_HINT_ID)?.contains(event.relatedTarget)) return
            checkTypo(event.currentTarget.value, 0)
          }}
          onChange={(event) => checkTypo(event.currentTarget.value, TYPO_PAUSE_MS)}
        />
        {/* Under the field, after the button (on wide screens under the row): appearing as the field is
        left, it must never move the button from under a pointer already on its way to it.
        Always in the page, so a screen reader hears the hint when it appears. */}
        <p id={TYPO_HINT_ID} role="status" className="order-last w-full text-left text-orange-50 empty:hidden">
          {suggestion ? (
            <>
              {content.typo.question.replace('{email}', suggestion)}{' '}
              <button
                type="button"
                className="font-semibold text-white underline underline-offset-4"
                onClick={() => {
                  if (email.current) email.current.value = suggestion
                  setSuggestion(null)
                  email.current?.focus()
                }}
              >
                {content.typo.accept.replace('{email}', suggestion)}
              </button>
            </>
          ) : null}
        </p>
        <Button
          type="submit"
          variant="inverse"
          aria-disabled={pending || undefined}
          className="aria-disabled:cursor-progress aria-disabled:opacity-80"
        >
          {pending ? <SvgIcon icon={LoaderCircle} className="size-5 animate-spin" /> : null}
          {pending ? content.submitting : content.submit}
        </Button>
      </form>
    </>
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
        'mx-auto mt-8 hidden max-w-xl scroll-mt-8 rounded-2xl focus:outline-none border-l-4 bg-white dark:bg-stone-900 px-5 py-4 text-left text-stone-900 dark:text-stone-50 shadow-lg target:block',
        outcome === 'joined' ? 'border-emerald-600' : 'border-red-600',
      )}
    >
      <p className="font-semibold">{copy.title}</p>
      <p className="mt-1 text-stone-700 dark:text-stone-300">{copy.description}</p>
    </div>
  ))
}
