// Import (issue 51; docs/import.md): a CSV of the addresses the team holds, shown first as the import
// will read its first rows, then started, its progress followed to its end, its counts and error
// file; and every import so far. For those who may import (owners and editors).
import { type FormEvent, useEffect, useState } from 'react'
import {
  IMPORT_EXISTING,
  IMPORT_MODES,
  IMPORT_PREVIEW_BYTES,
  type ImportMode,
  type ImportPreview,
  type ImportStatus,
} from '../../../../contract/imports'
import { Button, buttonVariants } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { cn } from '../../../lib/cn'
import { type AdminApi, importErrorsUrl } from '../../api'
import { adminContent } from '../../content'
import { useAction, useLoaded } from '../../hooks'
import { ActionOutcome } from '../../outcome'
import { useAdmin } from '../../session'
import { TableRegion, td } from '../../table'

const copy = adminContent.imports
/** How often a running import is asked for its progress. */
const FOLLOW_MS = 1_000

const imports = (api: AdminApi) => api.imports()
const percentOf = (status: ImportStatus) => (status.bytes === 0 ? 100 : Math.min(100, Math.round((status.readBytes / status.bytes) * 100)))

export function ImportsView() {
  const { api, onFailure } = useAdmin()
  const { data: list, reload } = useLoaded(imports)
  const [preview, setPreview] = useState<ImportPreview | null>(null)
  const [mode, setMode] = useState<ImportMode>('subscribe')
  // The import followed: the one just started, else the one running.
  const [followed, setFollowed] = useState<ImportStatus | null>(null)
  const change = useAction(reload, [400, 409, 413])

  // Opened while one runs (from here or the command line): that one is followed.
  const shown = followed ?? list?.find((item) => item.status === 'running') ?? null

  useEffect(() => {
    if (shown?.status !== 'running') return
    const timer = setTimeout(() => {
      api.importStatus(shown.id).then((fresh) => {
        setFollowed(fresh)
        if (fresh.status !== 'running') reload()
      }, onFailure)
    }, FOLLOW_MS)
    return () => clearTimeout(timer)
  }, [api, onFailure, shown, reload])

  /** A file chosen: its first bytes read by the server as the import will read them. */
  async function choose(file: File | undefined) {
    setPreview(null)
    if (!file) return
    await change.act(async () => {
      setPreview(await api.previewImport(file.slice(0, IMPORT_PREVIEW_BYTES), file.size > IMPORT_PREVIEW_BYTES))
    })
  }

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const file = form.get('file')
    if (!(file instanceof File)) return
    const fields: Record<string, string> = {}
    for (const name of ['mode', 'basis', 'existing', 'label']) fields[name] = String(form.get(name) ?? '')
    let id: number | undefined
    await change.act(async () => {
      id = (await api.startImport(fields, file)).id
    })
    if (id !== undefined) {
      change.setNotice(copy.started(id))
      setFollowed(await api.importStatus(id))
    }
  }

  async function cancel(id: number) {
    if (!window.confirm(copy.confirmCancel)) return
    await change.act(async () => setFollowed(await api.cancelImport(id)))
  }

  return (
    <>
      <section aria-labelledby="import-heading" className="rounded-2xl bg-white p-6 shadow-sm">
        <h2 id="import-heading" className="text-sm font-semibold text-stone-600 uppercase">
          {copy.heading}
        </h2>
        <p className="mt-2 max-w-3xl text-sm text-stone-700">{copy.intro}</p>
        <form onSubmit={(event) => void start(event)} className="mt-4 grid max-w-3xl gap-4">
          <div>
            <label htmlFor="import-file" className="block text-sm font-semibold text-stone-700">
              {copy.file}
            </label>
            <input
              id="import-file"
              name="file"
              type="file"
              accept=".csv,text/csv"
              required
              aria-describedby="import-file-hint"
              onChange={(event) => void choose(event.target.files?.[0])}
              className="mt-1 block text-sm text-stone-800"
            />
            <p id="import-file-hint" className="mt-1 text-sm text-stone-600">
              {copy.fileHint}
            </p>
          </div>
          {preview ? <PreviewTable preview={preview} /> : null}
          <fieldset>
            <legend className="text-sm font-semibold text-stone-700">{copy.mode}</legend>
            {IMPORT_MODES.map((value) => (
              <label key={value} className="mt-1 flex items-center gap-2 text-stone-900">
                <input
                  type="radio"
                  name="mode"
                  value={value}
                  checked={mode === value}
                  onChange={() => setMode(value)}
                  className="size-4 accent-brand-700"
                />
                {copy.modes[value]}
              </label>
            ))}
          </fieldset>
          <div>
            <label htmlFor="import-basis" className="block text-sm font-semibold text-stone-700">
              {copy.basis}
            </label>
            <textarea
              id="import-basis"
              name="basis"
              rows={2}
              maxLength={500}
              required={mode === 'subscribe'}
              aria-describedby="import-basis-hint"
              className="mt-1 w-full rounded-xl border border-stone-300 bg-white px-4 py-3 text-base text-stone-900 shadow-sm focus-visible:border-brand-600 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none"
            />
            <p id="import-basis-hint" className="mt-1 text-sm text-stone-600">
              {copy.basisHint}
            </p>
          </div>
          {mode === 'subscribe' ? (
            <fieldset>
              <legend className="text-sm font-semibold text-stone-700">{copy.existing}</legend>
              {IMPORT_EXISTING.map((value) => (
                <label key={value} className="mt-1 flex items-center gap-2 text-stone-900">
                  <input type="radio" name="existing" value={value} defaultChecked={value === 'skip'} className="size-4 accent-brand-700" />
                  {copy.existingChoices[value]}
                </label>
              ))}
            </fieldset>
          ) : null}
          <div className="sm:w-96">
            <label htmlFor="import-label" className="block text-sm font-semibold text-stone-700">
              {copy.label}
            </label>
            <Input id="import-label" name="label" maxLength={100} className="mt-1 h-10" />
          </div>
          <div>
            <Button type="submit" disabled={shown?.status === 'running'}>
              {copy.start}
            </Button>
          </div>
        </form>
        <ActionOutcome notice={change.notice} problem={change.problem} />
        {shown ? <Progress status={shown} onCancel={(id) => void cancel(id)} /> : null}
      </section>
      <ImportList items={list} />
    </>
  )
}

/** The first rows as the import will read them: each field as it lands, or the line's problem. */
function PreviewTable({ preview }: { preview: ImportPreview }) {
  const columns = Object.values(copy.previewColumns).map((label) => ({ label }))
  return (
    <div>
      <p className="text-sm text-stone-700">
        {copy.delimiter(preview.delimiter)} {copy.found(Object.values(preview.columns))} {copy.ignored(preview.ignoredColumns)}
      </p>
      <TableRegion caption={copy.previewCaption(preview.rows.length)} columns={columns} framed={false} className="mt-2">
        {preview.rows.map((row) => (
          <tr key={row.line} className="border-t border-stone-200">
            <td className={cn(td, 'tabular-nums')}>{row.line}</td>
            <th scope="row" className={cn(td, 'font-medium break-all')}>
              {row.email}
            </th>
            <td className={td}>{row.error ? '' : adminContent.language(row.locale)}</td>
            <td className={td}>{row.country ?? ''}</td>
            <td className={td}>{row.role ?? ''}</td>
            <td className={td}>
              {row.breeds.map((breed) => (breed.breed ? breed.name : `${breed.name} (${copy.unknownBreed})`)).join(', ')}
            </td>
            <td className={td}>{row.side ?? ''}</td>
            <td className={cn(td, 'text-red-800')}>{row.error ? copy.reasons[row.error] : ''}</td>
          </tr>
        ))}
      </TableRegion>
    </div>
  )
}

/** The import followed: a bar while it runs, then its counts and its error file. */
function Progress({ status, onCancel }: { status: ImportStatus; onCancel: (id: number) => void }) {
  const percent = percentOf(status)
  return (
    <div className="mt-4 max-w-3xl rounded-xl border border-stone-200 p-4">
      <p className="text-sm font-semibold text-stone-800">
        {copy.name(status)}: {copy.statuses[status.status]}
      </p>
      <progress
        className="mt-2 h-3 w-full accent-brand-700"
        max={100}
        value={percent}
        aria-label={copy.progressLabel(status.id)}
        aria-valuetext={copy.progress(status.processed, percent)}
      />
      <p role="status" className="mt-1 text-sm text-stone-700">
        {copy.progress(status.processed, percent)}
      </p>
      <p className="mt-1 text-sm text-stone-800">
        {copy.rows(status.rows)}
        {copy.counts(status)}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        {status.status === 'running' ? (
          <Button variant="outline" size="sm" onClick={() => onCancel(status.id)}>
            {copy.cancel}
          </Button>
        ) : status.skipped + status.failed > 0 ? (
          <a href={importErrorsUrl(status.id)} download className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            {copy.errorsFile}
          </a>
        ) : null}
      </div>
    </div>
  )
}

function ImportList({ items }: { items: ImportStatus[] | null }) {
  const columns = Object.values(copy.columns).map((label) => ({ label }))
  return (
    <section aria-labelledby="imports-heading" className="mt-6 rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="imports-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.list}
      </h2>
      <TableRegion caption={copy.listCaption} columns={columns} className="mt-3" empty={items && items.length === 0 ? copy.none : null}>
        {items?.map((item) => (
          <tr key={item.id} className="border-t border-stone-200">
            <th scope="row" className={cn(td, 'font-medium')}>
              {copy.name(item)}
            </th>
            <td className={cn(td, 'whitespace-nowrap tabular-nums')}>{adminContent.format.dateTime(item.startedAt)}</td>
            <td className={cn(td, 'break-all')}>{item.by}</td>
            <td className={td}>{item.mode}</td>
            <td className={td}>{item.basis}</td>
            <td className={td}>{copy.statuses[item.status]}</td>
            <td className={td}>
              {copy.rows(item.rows)}
              {copy.counts(item)}
            </td>
            <td className={td}>
              {item.skipped + item.failed > 0 ? (
                <a href={importErrorsUrl(item.id)} download className="text-brand-800 underline">
                  {copy.errorsLink}
                </a>
              ) : null}
            </td>
          </tr>
        ))}
      </TableRegion>
    </section>
  )
}
