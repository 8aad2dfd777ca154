// Campaigns for the team: compose for a segment, count and preview, test, send, and watch each
// one's progress live. Composing and test sends need campaigns:write; sending, campaigns:send.
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react'
import type { CampaignDraft, CampaignProgress, CampaignWritten, Localized } from '../../../../contract/campaigns'
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../../../contract/locales'
import type { SegmentFieldName } from '../../../../contract/segment'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { type AdminApi, AdminApiError } from '../../api'
import { adminContent } from '../../content'
import { useLoaded } from '../../hooks'
import { useAdmin } from '../../session'
import { ImportedNote } from './imported-note'
import { SegmentFields, segmentOf, unshownFields } from './segment-fields'
import { DEFAULT_MARKDOWN, DEFAULT_MARKDOWN_WITHOUT_STORE } from './default-message'

const text = adminContent.campaigns
/** How often campaigns are fetched again while one is sending. */
const REFRESH_MS = 1500

/** A campaign's Markdown field, in English and in each other language. */
const markdownBox =
  'w-full rounded-xl border border-stone-300 bg-white px-4 py-3 font-mono text-sm text-stone-900 focus-visible:border-brand-600 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none'

/** The languages other than English, in the compose form's order. */
const OTHER_LOCALES = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE)

/**
 * The subject and message the form holds: English alone as strings (the API's simple form), else
 * objects keyed by language, with every language that has either field (the server names a missing
 * half).
 */
function wordsOf(form: FormData): { subject: Localized; markdown: Localized } {
  const field = (name: string) => String(form.get(name) ?? '')
  const given = OTHER_LOCALES.filter((locale) => field(`subject-${locale}`).trim() !== '' || field(`markdown-${locale}`).trim() !== '')
  if (given.length === 0) return { subject: field('subject'), markdown: field('markdown') }
  const subject: Localized = { en: field('subject') }
  const markdown: Localized = { en: field('markdown') }
  for (const locale of given) {
    if (field(`subject-${locale}`).trim() !== '') subject[locale] = field(`subject-${locale}`)
    if (field(`markdown-${locale}`).trim() !== '') markdown[locale] = field(`markdown-${locale}`)
  }
  return { subject, markdown }
}

interface RowActions {
  /** Pause or resume (who may send). */
  onPause: ((paused: boolean) => void) | null
  /** Open or delete a draft (who may write). */
  onOpen: (() => void) | null
  onDelete: (() => void) | null
}

function ProgressRow({ campaign, onPause, onOpen, onDelete }: { campaign: CampaignProgress } & RowActions) {
  // Handed to the mail server (taken or refused), or given up: what will not be sent again.
  const done = campaign.delivery.sent + campaign.failed
  const percent = campaign.recipients === 0 ? (campaign.status === 'draft' ? 0 : 100) : Math.round((done / campaign.recipients) * 100)
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <span className="min-w-0 font-medium break-words text-stone-900">
          #{campaign.id} {campaign.subject} <span className="text-sm font-normal text-stone-600">({text.statuses[campaign.status]})</span>
        </span>
        {campaign.status === 'draft' && onOpen && onDelete ? (
          <span className="flex gap-2">
            <Button variant="outline" size="sm" aria-label={text.openLabel(campaign.subject)} onClick={onOpen}>
              {text.open}
            </Button>
            <Button variant="outline" size="sm" aria-label={text.deleteLabel(campaign.subject)} onClick={onDelete}>
              {text.deleteDraft}
            </Button>
          </span>
        ) : !onPause ? null : campaign.status === 'sending' ? (
          <Button variant="outline" size="sm" onClick={() => onPause(true)}>
            {text.pause}
          </Button>
        ) : campaign.status === 'paused' ? (
          <Button variant="outline" size="sm" onClick={() => onPause(false)}>
            {text.resume}
          </Button>
        ) : null}
      </div>
      <div
        role="progressbar"
        aria-label={text.progressLabel(campaign.subject)}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%: ${text.progress(campaign.delivery.sent, campaign.recipients)}`}
        className="mt-2 h-3 overflow-hidden rounded-full bg-stone-200"
      >
        <div className="h-full rounded-full bg-brand-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-sm text-stone-700">
        {text.progress(campaign.delivery.sent, campaign.recipients)} · {text.counts(campaign.queued, campaign.failed, campaign.delivery)}
      </p>
      {campaign.pausedReason ? (
        <p className="mt-1 text-sm font-medium text-red-800">
          {text.pausedItself} {campaign.pausedReason}
        </p>
      ) : null}
    </li>
  )
}

const loadSettings = (api: AdminApi) => api.campaignSettings()

export function CampaignsView() {
  const { api, can, onFailure } = useAdmin()
  const mayWrite = can('campaigns:write')
  const maySend = can('campaigns:send')
  const [campaigns, setCampaigns] = useState<CampaignProgress[]>([])
  const [draft, setDraft] = useState<(CampaignDraft & { subject: string }) | null>(null)
  // The draft the composer holds (opened from the list, or made by its first preview): a preview
  // saves into it, so previews do not pile up drafts. Its fields start from `opened`.
  const [editing, setEditing] = useState<number | null>(null)
  const [opened, setOpened] = useState<CampaignWritten | null>(null)
  const [formVersion, setFormVersion] = useState(0)
  const [shown, setShown] = useState<Locale>(DEFAULT_LOCALE)
  const [problem, setProblem] = useState('')
  const [notice, setNotice] = useState('')
  const [version, setVersion] = useState(0)
  // The default message links the app only where the server knows a store (APP_STORE_URL, PLAY_STORE_URL).
  const settings = useLoaded(loadSettings).data
  const appStore = settings ? settings.appStoreUrl || settings.playStoreUrl : null
  const reload = useCallback(() => setVersion((v) => v + 1), [])
  const sending = campaigns.some((c) => c.status === 'sending')
  const segment = opened?.segment
  // A draft is saved as the form shows it: if the form could not show its segment whole (one saved
  // before the form had a field), say which fields, before a preview saves them as shown.
  const composer = useRef<HTMLFormElement>(null)
  const [unshown, setUnshown] = useState<SegmentFieldName[]>([])
  useEffect(() => {
    setUnshown(opened && composer.current ? unshownFields(opened.segment, new FormData(composer.current)) : [])
  }, [opened, formVersion])

  // The list, again and again while a campaign is sending: the progress bars move live.
  useEffect(() => {
    let current = true
    const load = () =>
      api.campaigns().then(
        (fresh) => current && setCampaigns(fresh),
        (failure: unknown) => current && onFailure(failure),
      )
    void load()
    const timer = sending ? setInterval(load, REFRESH_MS) : undefined
    return () => {
      current = false
      if (timer) clearInterval(timer)
    }
  }, [api, onFailure, version, sending])

  /** A 400 names the field: say it where the form is; anything else goes to the page's alert. */
  const refused = (failure: unknown) => {
    if (failure instanceof AdminApiError && (failure.status === 400 || failure.status === 409))
      setProblem(`${text.refused} ${adminContent.refusal(failure)}`)
    else onFailure(failure)
  }

  async function preview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const subject = String(form.get('subject') ?? '')
    setProblem('')
    setNotice('')
    try {
      const campaign = { ...wordsOf(form), segment: segmentOf(form) }
      const made = editing === null ? await api.draft(campaign) : await api.updateDraft(editing, campaign)
      setEditing(made.id)
      setUnshown([])
      setDraft({ ...made, subject })
      setShown(DEFAULT_LOCALE)
      reload()
    } catch (failure) {
      refused(failure)
    }
  }

  async function sendTest(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!draft) return
    try {
      await api.test(draft.id, String(new FormData(event.currentTarget).get('test') ?? ''), shown)
      setNotice(text.testSent)
    } catch (failure) {
      refused(failure)
    }
  }

  async function send() {
    if (!draft || !window.confirm(text.confirmSend(draft.recipients, draft.subject))) return
    try {
      await api.send(draft.id)
      startNew()
      reload()
    } catch (failure) {
      refused(failure)
    }
  }

  /** An empty composer: the next preview makes a new draft. */
  function startNew() {
    setEditing(null)
    setOpened(null)
    setDraft(null)
    setProblem('')
    setNotice('')
    setFormVersion((v) => v + 1)
  }

  async function open(id: number) {
    try {
      const written = await api.openDraft(id)
      setEditing(id)
      setOpened(written)
      setDraft({ ...written, subject: written.subject.en })
      setShown(DEFAULT_LOCALE)
      setProblem('')
      setNotice('')
      setFormVersion((v) => v + 1)
    } catch (failure) {
      onFailure(failure)
    }
  }

  async function remove(campaign: CampaignProgress) {
    if (!window.confirm(text.confirmDelete(campaign.subject))) return
    try {
      await api.deleteDraft(campaign.id)
      if (editing === campaign.id) startNew()
      reload()
    } catch (failure) {
      onFailure(failure)
    }
  }

  async function pause(id: number, paused: boolean) {
    try {
      await api.pause(id, paused)
      reload()
    } catch (failure) {
      onFailure(failure)
    }
  }

  return (
    <section aria-labelledby="campaigns-heading" className="rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="campaigns-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {text.heading}
      </h2>
      {mayWrite ? (
        <form key={formVersion} ref={composer} onSubmit={preview} className="mt-4 grid gap-4" aria-label={text.compose}>
          {editing !== null ? (
            <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-stone-100 px-4 py-2">
              <p className="text-sm font-medium text-stone-800">{text.editing(editing)}</p>
              <Button type="button" variant="outline" size="sm" onClick={startNew}>
                {text.newCampaign}
              </Button>
            </div>
          ) : null}
          <div>
            <label htmlFor="campaign-subject" className="block text-sm font-semibold text-stone-700">
              {text.subject}
            </label>
            <Input id="campaign-subject" name="subject" required maxLength={200} defaultValue={opened?.subject.en} className="mt-1" />
          </div>
          <div>
            <label htmlFor="campaign-markdown" className="block text-sm font-semibold text-stone-700">
              {text.markdown}
            </label>
            <textarea
              id="campaign-markdown"
              name="markdown"
              required
              rows={6}
              key={String(appStore)}
              defaultValue={opened?.markdown.en ?? (appStore ? DEFAULT_MARKDOWN : DEFAULT_MARKDOWN_WITHOUT_STORE)}
              aria-describedby="campaign-markdown-hint"
              className={`mt-1 ${markdownBox}`}
            />
            <p id="campaign-markdown-hint" className="text-sm text-stone-600">
              {text.markdownHint}
            </p>
          </div>
          <details className="rounded-xl border border-stone-200 p-4" open={opened !== null && Object.keys(opened.subject).length > 1}>
            <summary className="cursor-pointer text-sm font-semibold text-stone-700">{text.otherLanguages}</summary>
            {OTHER_LOCALES.map((locale) => (
              <fieldset key={locale} className="mt-4 grid gap-2">
                <legend className="text-sm font-semibold text-stone-900">{adminContent.language(locale)}</legend>
                <label htmlFor={`campaign-subject-${locale}`} className="block text-sm text-stone-700">
                  {text.languageSubject(adminContent.language(locale))}
                </label>
                <Input
                  id={`campaign-subject-${locale}`}
                  name={`subject-${locale}`}
                  lang={locale}
                  maxLength={200}
                  defaultValue={opened?.subject[locale]}
                />
                <label htmlFor={`campaign-markdown-${locale}`} className="block text-sm text-stone-700">
                  {text.languageMarkdown(adminContent.language(locale))}
                </label>
                <textarea
                  id={`campaign-markdown-${locale}`}
                  name={`markdown-${locale}`}
                  lang={locale}
                  rows={4}
                  defaultValue={opened?.markdown[locale]}
                  className={markdownBox}
                />
              </fieldset>
            ))}
          </details>
          <SegmentFields segment={segment} notes={{ imported: <ImportedNote /> }} />
          {unshown.length > 0 ? (
            <p role="status" className="text-sm font-medium text-amber-900">
              {text.unshown(unshown.map((name) => text[name]))}
            </p>
          ) : null}
          <div>
            <Button type="submit">{text.preview}</Button>
          </div>
          <p role="alert" className="text-sm font-medium text-red-700">
            {problem}
          </p>
        </form>
      ) : null}
      {draft ? (
        <div role="region" aria-label={text.recipients(draft.recipients)} className="mt-4 rounded-xl border border-stone-200 p-4">
          <p className="text-lg font-semibold text-stone-900">{text.recipients(draft.recipients)}</p>
          {Object.keys(draft.previews).length > 1 ? (
            <div role="group" aria-label={text.previewLanguage} className="mt-3 flex flex-wrap gap-2">
              {LOCALES.filter((locale) => draft.previews[locale]).map((locale) => (
                <Button
                  key={locale}
                  variant={shown === locale ? 'default' : 'outline'}
                  size="sm"
                  aria-pressed={shown === locale}
                  onClick={() => setShown(locale)}
                >
                  {adminContent.language(locale)}
                </Button>
              ))}
            </div>
          ) : null}
          <p className="mt-3 font-medium break-words text-stone-900">{(draft.previews[shown] ?? draft.previews.en)?.subject}</p>
          <iframe
            title={text.previewFrame}
            sandbox=""
            srcDoc={(draft.previews[shown] ?? draft.previews.en)?.html ?? draft.html}
            className="mt-3 h-96 w-full rounded-lg border border-stone-200 bg-white"
          />
          <form onSubmit={sendTest} className="mt-3 flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="campaign-test" className="block text-sm text-stone-700">
                {text.testAddress}
              </label>
              <Input id="campaign-test" name="test" type="email" required className="mt-1" />
            </div>
            <Button type="submit" variant="outline">
              {text.sendTest}
            </Button>
          </form>
          <p role="status" className="mt-2 min-h-5 text-sm text-stone-700">
            {notice}
          </p>
          {maySend ? (
            <Button className="mt-3" onClick={() => void send()} disabled={draft.recipients === 0}>
              {text.send(draft.recipients)}
            </Button>
          ) : (
            <p className="mt-3 text-sm text-stone-700">{text.sendingIsOwners}</p>
          )}
        </div>
      ) : null}
      <h3 className="mt-6 font-semibold text-stone-900">{text.list}</h3>
      {campaigns.length === 0 ? <p className="mt-2 text-stone-600">{text.none}</p> : null}
      <ul className="divide-y divide-stone-200">
        {campaigns.map((campaign) => (
          <ProgressRow
            key={campaign.id}
            campaign={campaign}
            onPause={maySend ? (paused) => void pause(campaign.id, paused) : null}
            onOpen={mayWrite ? () => void open(campaign.id) : null}
            onDelete={mayWrite ? () => void remove(campaign) : null}
          />
        ))}
      </ul>
    </section>
  )
}
