// Sign-ups: the list with its addresses, searched as you type, with the export and removal for
// those whose role allows them.
import { useCallback, useState } from 'react'
import type { SignUp, SignupsPage } from '../../../../contract/admin-api'
import { DEFAULT_LOCALE } from '../../../../contract/locales'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import type { AdminApi } from '../../api'
import { adminContent as copy } from '../../content'
import { useSearched } from '../../hooks'
import { useAdmin } from '../../session'

/** The first page of the sign-ups a search finds. */
const firstPage = (api: AdminApi, search: string, signal: AbortSignal) => api.signups(search, undefined, signal)

/** What the list says of a sign-up beyond its address: confirmed, its mail, its profile. */
function statusOf(row: SignUp): string {
  const parts = [row.confirmed_at ? copy.status.confirmed : copy.status.unconfirmed]
  if (row.unsubscribed_at) parts.push(copy.status.unsubscribed)
  if (row.mail_state) parts.push(copy.status.mail(row.mail_state))
  return parts.join(' · ')
}

/** A bounce, a complaint or a suppression, marked where the team sees it: words, not a colour alone. */
function MailTrouble({ row }: { row: SignUp }) {
  if (row.mail_event === null && row.suppressed === null) return null
  const words = [
    row.mail_event === null ? null : copy.status.mailEvent[row.mail_event],
    row.suppressed === null ? null : copy.status.suppressed,
  ]
  return (
    <span className="ml-1 inline-block rounded border border-red-300 bg-red-50 px-1.5 text-xs font-medium whitespace-nowrap text-red-800">
      {words.filter((word) => word !== null).join(' · ')}
    </span>
  )
}

/**
 * Where a sign-up came from: its campaign source or referring site, and whose invite it took; an
 * imported one, its import with the basis it was brought in on and when.
 */
function sourceOf(row: SignUp): string {
  const parts = [
    row.utm_source ?? row.referrer,
    row.invited_by_email === null ? null : copy.invitedBy(row.invited_by_email),
    row.import_basis === null || row.imported_at === null ? null : copy.importedOn(row.import_basis, row.imported_at),
  ]
  const known = parts.filter((part): part is string => part !== null)
  return known.length > 0 ? known.join(' · ') : copy.direct
}

function profileOf(row: SignUp): string {
  const parts = [row.role ? copy.roles[row.role] : '', row.country ?? '', row.breeds.join(', ')].filter(Boolean)
  const profile = parts.length > 0 ? parts.join(' · ') : copy.noProfile
  // English is everyone's unless said otherwise: only another language is worth a word.
  return row.locale === DEFAULT_LOCALE ? profile : `${profile} · ${copy.language(row.locale)}`
}

export function SignupsView() {
  const { api, can, onFailure } = useAdmin()
  const mayDelete = can('signups:delete')
  const [rows, setRows] = useState<SignUp[]>([])
  const [next, setNext] = useState<number | null>(null)
  const [search, setSearch] = useState('')
  const [exporting, setExporting] = useState(false)

  const showPage = useCallback((page: SignupsPage) => {
    setRows(page.items)
    setNext(page.next)
  }, [])
  const refresh = useSearched(search, firstPage, showPage)

  async function loadMore() {
    if (next === null) return
    try {
      const page = await api.signups(search, next)
      setRows((current) => [...current, ...page.items])
      setNext(page.next)
    } catch (failure) {
      onFailure(failure)
    }
  }

  async function remove(email: string) {
    if (!window.confirm(copy.confirmRemove(email))) return
    try {
      await api.remove(email)
      refresh()
    } catch (failure) {
      onFailure(failure)
    }
  }

  async function exportCsv() {
    setExporting(true)
    try {
      const { blob, filename } = await api.exportCsv()
      const link = document.createElement('a')
      link.href = URL.createObjectURL(blob)
      link.download = filename
      link.click()
      URL.revokeObjectURL(link.href)
    } catch (failure) {
      onFailure(failure)
    } finally {
      setExporting(false)
    }
  }

  return (
    <>
      {can('signups:export') ? (
        <div className="flex justify-end">
          <Button onClick={() => void exportCsv()} disabled={exporting}>
            {exporting ? copy.exporting : copy.exportCsv}
          </Button>
        </div>
      ) : null}
      <section aria-label={copy.listLabel} className="mt-4 rounded-2xl bg-white p-6 shadow-sm">
        <label htmlFor="admin-search" className="block text-sm font-semibold text-stone-700">
          {copy.searchLabel}
        </label>
        <Input
          id="admin-search"
          type="search"
          placeholder={copy.searchPlaceholder}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className="mt-2 max-w-md"
        />
        {/* On a phone the table has two columns, the address (with its day and source beneath)
            and Remove; from sm up, day and source get columns of their own. */}
        <div className="mt-4">
          <table className="w-full table-fixed text-left text-sm">
            <thead className="text-stone-600">
              <tr>
                <th scope="col" className="py-2 pr-4">
                  {copy.columns.email}
                </th>
                <th scope="col" className="hidden w-44 py-2 pr-4 sm:table-cell">
                  {copy.columns.joined}
                </th>
                <th scope="col" className="hidden w-40 py-2 pr-4 lg:table-cell">
                  {copy.columns.status}
                </th>
                <th scope="col" className="hidden w-48 py-2 pr-4 lg:table-cell">
                  {copy.columns.profile}
                </th>
                <th scope="col" className="hidden w-40 py-2 pr-4 sm:table-cell">
                  {copy.columns.source}
                </th>
                {mayDelete ? (
                  <th scope="col" className="w-24 py-2">
                    <span className="sr-only">{copy.columns.actions}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const joined = copy.format.dateTime(row.created_at)
                const source = sourceOf(row)
                return (
                  <tr key={row.id} className="border-t border-stone-200">
                    <td className="py-2 pr-4 align-top">
                      <span className="block font-medium break-all text-stone-900">{row.email}</span>
                      <span className="mt-0.5 block text-xs text-stone-600 sm:hidden">
                        {joined} · {source}
                      </span>
                      <span className="mt-0.5 block text-xs text-stone-600 lg:hidden">
                        {statusOf(row)} · {profileOf(row)} <MailTrouble row={row} />
                      </span>
                    </td>
                    <td className="hidden py-2 pr-4 align-top text-stone-700 sm:table-cell">{joined}</td>
                    <td className="hidden py-2 pr-4 align-top text-stone-700 lg:table-cell">
                      {statusOf(row)} <MailTrouble row={row} />
                    </td>
                    <td className="hidden py-2 pr-4 align-top break-words text-stone-700 lg:table-cell">{profileOf(row)}</td>
                    <td className="hidden py-2 pr-4 align-top break-all text-stone-700 sm:table-cell">{source}</td>
                    {mayDelete ? (
                      <td className="py-2 text-right align-top">
                        <Button variant="outline" size="sm" aria-label={copy.removeLabel(row.email)} onClick={() => void remove(row.email)}>
                          {copy.remove}
                        </Button>
                      </td>
                    ) : null}
                  </tr>
                )
              })}
            </tbody>
          </table>
          {rows.length === 0 ? <p className="py-4 text-stone-600">{copy.none}</p> : null}
        </div>
        {next !== null ? (
          <Button variant="outline" className="mt-4" onClick={() => void loadMore()}>
            {copy.loadMore}
          </Button>
        ) : null}
      </section>
    </>
  )
}
