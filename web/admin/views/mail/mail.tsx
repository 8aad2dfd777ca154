// The mail side for the team: the queue and what became of every mail, followed live, and, without SMTP, the local
// mailbox with a preview of each mail as a client shows it (links open in a new tab).
import { useEffect, useRef, useState } from 'react'
import type { LocalMailPreview, MailOverview } from '../../../../contract/admin-api'
import type { DeliveryFigures, QueueFigures } from '../../../../contract/mail-figures'
import { Button } from '../../../components/ui/button'
import { adminContent } from '../../content'
import { useAdmin } from '../../session'

const copy = adminContent.mail
/** How often the outbox's figures are fetched again while the page is open. */
const REFRESH_MS = 3000

/** The queue, then what became of the mails handed over: the same figures Deliverability shows per campaign and domain. */
const QUEUE = ['queued', 'sending', 'failed'] as const satisfies readonly (keyof QueueFigures)[]
const FIGURES = ['sent', 'delivered', 'hardBounced', 'softBounced', 'complained'] as const satisfies readonly (keyof DeliveryFigures)[]

function Figure({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div className="rounded-xl bg-stone-100 px-4 py-3">
      <dt className="text-sm text-stone-600">{label}</dt>
      <dd className="text-2xl font-bold text-stone-900">{value === undefined ? '…' : adminContent.format.number(value)}</dd>
    </div>
  )
}

/** The mail's HTML inside a sandbox: no script runs, and links open outside it, in a new tab. */
const framed = (html: string) => `<base target="_blank">${html}`

export function MailView() {
  const { api, onFailure } = useAdmin()
  const [overview, setOverview] = useState<MailOverview | null>(null)
  const [preview, setPreview] = useState<LocalMailPreview | null>(null)
  const region = useRef<HTMLDivElement>(null)
  /** The Preview button pressed last: the focus goes back to it when the preview closes. */
  const opener = useRef<HTMLButtonElement | null>(null)

  // The preview is drawn under the list, out of sight below a long one: bring it into view and give
  // it the focus, so a keyboard or a screen reader carries on there. The scroll is smooth, or
  // instant under prefers-reduced-motion (web/theme.css sets the page's scroll-behavior).
  useEffect(() => {
    if (!preview) return
    region.current?.focus({ preventScroll: true })
    region.current?.scrollIntoView({ block: 'start' })
  }, [preview])

  useEffect(() => {
    let current = true
    const load = () =>
      api.mail().then(
        (fresh) => current && setOverview(fresh),
        (failure: unknown) => current && onFailure(failure),
      )
    void load()
    const timer = setInterval(load, REFRESH_MS)
    return () => {
      current = false
      clearInterval(timer)
    }
  }, [api, onFailure])

  async function open(name: string, button: HTMLButtonElement) {
    opener.current = button
    try {
      setPreview(await api.localMail(name))
    } catch (failure) {
      onFailure(failure)
    }
  }

  function close() {
    setPreview(null)
    if (opener.current?.isConnected) opener.current.focus()
  }

  return (
    <section aria-labelledby="mail-heading" className="rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="mail-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.heading}
      </h2>
      <dl aria-label={copy.outbox} className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {QUEUE.map((state) => (
          <Figure key={state} label={copy.states[state]} value={overview?.queue[state]} />
        ))}
      </dl>
      <dl aria-label={copy.delivery} className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {FIGURES.map((figure) => (
          <Figure key={figure} label={adminContent.figures[figure]} value={overview?.delivery[figure]} />
        ))}
      </dl>
      {overview ? <p className="mt-3 text-sm text-stone-600">{overview.transport === 'smtp' ? copy.viaSmtp : copy.viaFiles}</p> : null}
      {overview?.transport === 'files' ? (
        <>
          <h3 className="mt-5 font-semibold text-stone-900">{copy.localHeading}</h3>
          {overview.local.length === 0 ? <p className="mt-2 text-stone-600">{copy.noLocal}</p> : null}
          <ul className="mt-2 divide-y divide-stone-200">
            {overview.local.map((mail) => (
              <li key={mail.name} className="flex flex-wrap items-center justify-between gap-3 py-2">
                <span className="min-w-0">
                  <span className="block font-medium break-words text-stone-900">{mail.subject}</span>
                  <span className="block text-sm break-all text-stone-600">
                    {mail.to} · {adminContent.format.instant(mail.date)}
                  </span>
                </span>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={copy.previewLabel(mail.subject)}
                  onClick={(event) => void open(mail.name, event.currentTarget)}
                >
                  {copy.preview}
                </Button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {preview ? (
        <div
          ref={region}
          role="region"
          tabIndex={-1}
          aria-label={copy.previewLabel(preview.subject)}
          className="mt-5 scroll-mt-4 rounded-xl border border-stone-200 p-4 focus:outline-none"
        >
          <div className="flex flex-wrap items-start justify-between gap-3">
            <dl className="min-w-0 text-sm">
              <div className="font-semibold break-words text-stone-900">{preview.subject}</div>
              <div className="text-stone-700">
                <dt className="inline">{copy.to}: </dt>
                <dd className="inline break-all">{preview.to}</dd>
              </div>
              <div className="text-stone-700">
                <dt className="inline">{copy.date}: </dt>
                <dd className="inline">{adminContent.format.instant(preview.date)}</dd>
              </div>
            </dl>
            <Button variant="outline" size="sm" onClick={close}>
              {copy.close}
            </Button>
          </div>
          <iframe
            title={copy.frameTitle}
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={framed(preview.html)}
            className="mt-4 h-[32rem] w-full rounded-lg border border-stone-200 bg-white"
          />
          <details className="mt-3">
            <summary className="cursor-pointer text-sm font-medium text-stone-700">{copy.textVersion}</summary>
            <pre className="mt-2 text-xs whitespace-pre-wrap text-stone-800">{preview.text}</pre>
          </details>
        </div>
      ) : null}
    </section>
  )
}
