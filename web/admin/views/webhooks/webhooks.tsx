// Webhooks, for owners: endpoints with their events (the secret shown once, and at a rotation),
// enabling and disabling, a test event, and each endpoint's delivery log with resending.
import { type FormEvent, useEffect, useState } from 'react'
import { WEBHOOK_EVENTS, type WebhookAttempt, type WebhookEndpoint } from '../../../../contract/webhooks'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import type { AdminApi } from '../../api'
import { useAction, useLoaded } from '../../hooks'
import { adminContent } from '../../content'
import { useAdmin } from '../../session'
import { TableRegion, td } from '../../table'
import { ActionOutcome } from '../../outcome'

const copy = adminContent.webhooks
const moment = (iso: string) => adminContent.format.instant(iso)

/** An endpoint's deliveries: loaded again whenever the list is (each load gives a new `endpoint`), and after a resend. */
function DeliveryLog({ endpoint, onResent }: { endpoint: WebhookEndpoint; onResent: (text: string) => void }) {
  const { api, onFailure } = useAdmin()
  const [items, setItems] = useState<WebhookAttempt[] | null>(null)
  const [again, setAgain] = useState(0)
  useEffect(() => {
    let current = true
    api.webhookLog(endpoint.id).then(
      (page) => current && setItems(page.items),
      (failure: unknown) => current && onFailure(failure),
    )
    return () => {
      current = false
    }
  }, [api, onFailure, endpoint, again])

  async function resend(attempt: WebhookAttempt) {
    try {
      await api.resendDelivery(endpoint.id, attempt.deliveryId)
      onResent(copy.resent(1))
      setAgain((n) => n + 1)
    } catch (failure) {
      onFailure(failure)
    }
  }
  async function resendFailed(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const since = String(new FormData(event.currentTarget).get('since') ?? '')
    try {
      const { resent } = await api.resendFailed(endpoint.id, `${since}T00:00:00Z`)
      onResent(copy.resent(resent))
      setAgain((n) => n + 1)
    } catch (failure) {
      onFailure(failure)
    }
  }

  return (
    <details className="mt-3">
      <summary className="cursor-pointer text-sm font-semibold text-stone-700">{copy.log}</summary>
      <TableRegion
        caption={copy.logCaption(endpoint.url)}
        className="mt-2 max-h-96"
        columns={[
          { label: copy.columns.at },
          { label: copy.columns.event },
          { label: copy.columns.attempt, numeric: true },
          { label: copy.columns.status },
          { label: copy.columns.duration, numeric: true },
          { label: copy.columns.answer },
          { label: copy.columns.actions },
        ]}
        empty={items && items.length === 0 ? copy.noLog : null}
      >
        {items?.map((attempt) => (
          <tr key={attempt.id} className="border-t border-stone-200 align-top">
            <td className={`${td} whitespace-nowrap`}>{moment(attempt.at)}</td>
            <th scope="row" className={`${td} font-medium`}>
              {attempt.event}
            </th>
            <td className={`${td} text-right`}>{attempt.attempt}</td>
            <td className={td}>
              {attempt.status ?? '—'} · {copy.states[attempt.state]}
            </td>
            <td className={`${td} text-right whitespace-nowrap`}>{attempt.durationMs} ms</td>
            <td className={`${td} max-w-64 break-all`}>{attempt.error ?? attempt.response ?? ''}</td>
            <td className={td}>
              {attempt.state === 'failed' || attempt.state === 'delivered' ? (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={copy.resendLabel(attempt.event, moment(attempt.at))}
                  onClick={() => void resend(attempt)}
                >
                  {copy.resend}
                </Button>
              ) : null}
            </td>
          </tr>
        ))}
      </TableRegion>
      <form onSubmit={(event) => void resendFailed(event)} className="mt-3 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={`resend-since-${endpoint.id}`} className="block text-sm text-stone-700">
            {copy.resendSince}
          </label>
          <Input id={`resend-since-${endpoint.id}`} name="since" type="date" required className="mt-1" />
        </div>
        <Button type="submit" variant="outline">
          {copy.resendFailed}
        </Button>
      </form>
    </details>
  )
}

const loadWebhooks = (api: AdminApi) => api.webhooks()
/** Refusals whose reason is said beside the form: a wrong field (400), too many test events (429). */
const REFUSALS_SAID = [400, 429] as const

export function WebhooksView() {
  const { api } = useAdmin()
  const { data: endpoints, reload } = useLoaded(loadWebhooks)
  const { notice, problem, act: change, setNotice } = useAction(reload, REFUSALS_SAID)
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null)

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    await change(async () => {
      const made = await api.addWebhook({
        url: String(data.get('url') ?? ''),
        description: String(data.get('description') ?? ''),
        events: data.getAll('event').map(String),
        includeEmail: data.get('includeEmail') === 'on',
      })
      setSecret({ label: copy.secret, value: made.secret })
      form.reset()
    })
  }

  return (
    <section aria-labelledby="webhooks-heading" className="rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="webhooks-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.heading}
      </h2>
      <p className="mt-2 text-sm text-stone-700">{copy.intro}</p>
      <ActionOutcome notice={notice} problem={problem} />
      {secret ? (
        <div className="mt-2 rounded-xl border border-amber-300 bg-amber-50 p-4">
          <label htmlFor="webhook-secret" className="block text-sm font-semibold text-stone-900">
            {secret.label}
          </label>
          <Input
            id="webhook-secret"
            readOnly
            value={secret.value}
            className="mt-2 font-mono"
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
      ) : null}
      {endpoints && endpoints.length === 0 ? <p className="mt-4 text-stone-600">{copy.none}</p> : null}
      <ul className="mt-2 divide-y divide-stone-200">
        {endpoints?.map((endpoint) => (
          <li key={endpoint.id} className="py-4">
            <p className="font-medium break-all text-stone-900">{endpoint.url}</p>
            <p className="mt-1 text-sm text-stone-700">
              {[
                endpoint.enabled ? copy.enabled : copy.disabled,
                endpoint.includeEmail ? copy.withEmail : '',
                endpoint.description,
                endpoint.disabledReason ? copy.disabledReason(endpoint.disabledReason) : '',
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
            <p className="mt-1 text-sm break-words text-stone-600">{endpoint.events.join(', ')}</p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button
                variant="outline"
                size="sm"
                onClick={() => void change(() => api.changeWebhook(endpoint.id, { enabled: !endpoint.enabled }))}
              >
                {endpoint.enabled ? copy.disable : copy.enable}
              </Button>
              <Button variant="outline" size="sm" onClick={() => void change(() => api.testWebhook(endpoint.id), copy.tested)}>
                {copy.test}
              </Button>
              <Button
                variant="outline"
                size="sm"
                onClick={() =>
                  void change(async () => {
                    const rotated = await api.rotateWebhook(endpoint.id)
                    setSecret({ label: copy.rotated(rotated.previousValidUntil), value: rotated.secret })
                  })
                }
              >
                {copy.rotate}
              </Button>
              <Button
                variant="outline"
                size="sm"
                onClick={() => {
                  if (window.confirm(copy.confirmRemove(endpoint.url))) void change(() => api.removeWebhook(endpoint.id))
                }}
              >
                {copy.remove}
              </Button>
            </div>
            <DeliveryLog endpoint={endpoint} onResent={setNotice} />
          </li>
        ))}
      </ul>
      <form
        onSubmit={(event) => void add(event)}
        aria-labelledby="webhook-add-heading"
        className="mt-6 grid gap-3 rounded-xl border border-stone-200 p-4"
      >
        <h3 id="webhook-add-heading" className="font-semibold text-stone-900">
          {copy.add}
        </h3>
        <label htmlFor="webhook-url" className="text-sm text-stone-700">
          {copy.url}
        </label>
        <Input id="webhook-url" name="url" type="url" required maxLength={2048} placeholder="https://hooks.example.com/kennect" />
        <label htmlFor="webhook-description" className="text-sm text-stone-700">
          {copy.description}
        </label>
        <Input id="webhook-description" name="description" maxLength={200} />
        <fieldset>
          <legend className="text-sm text-stone-700">{copy.events}</legend>
          <div className="mt-1 grid gap-1 sm:grid-cols-2">
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className="flex items-center gap-2 text-sm text-stone-900">
                <input type="checkbox" name="event" value={event} className="size-4 accent-brand-700" />
                {event}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="flex items-center gap-2 text-sm text-stone-900">
          <input type="checkbox" name="includeEmail" className="size-4 accent-brand-700" />
          {copy.includeEmail}
        </label>
        <div>
          <Button type="submit">{copy.save}</Button>
        </div>
      </form>
    </section>
  )
}
