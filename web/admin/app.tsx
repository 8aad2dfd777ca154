import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react'
import type { SignUp, Stats } from '../../contract/admin-api'
import { DEFAULT_LOCALE } from '../../contract/locales'
import { Button } from '../components/ui/button'
import { Input } from '../components/ui/input'
import { AdminApiError, type AdminApi, createAdminApi } from './api'
import { PerDayTable, SignupsChart } from './chart'
import { adminContent as copy } from './content'
import { FunnelPanel, LaunchPanel } from './growth'
import { Campaigns, DemandMap } from './launch'
import { MailPanel } from './mail'

/** A search waits for this pause in typing, so a word typed is one request, not one per key. */
const SEARCH_PAUSE_MS = 250

/** What the list says of a sign-up beyond its address: confirmed, its mail, its profile. */
function statusOf(row: SignUp): string {
  const parts = [row.confirmed_at ? copy.status.confirmed : copy.status.unconfirmed]
  if (row.unsubscribed_at) parts.push(copy.status.unsubscribed)
  if (row.mail_state) parts.push(copy.status.mail(row.mail_state))
  return parts.join(' · ')
}

function profileOf(row: SignUp): string {
  const parts = [row.role ? copy.roles[row.role] : '', row.country ?? '', row.breeds.join(', ')].filter(Boolean)
  const profile = parts.length > 0 ? parts.join(' · ') : copy.noProfile
  // English is everyone's unless said otherwise: only another language is worth a word.
  return row.locale === DEFAULT_LOCALE ? profile : `${profile} · ${copy.language(row.locale)}`
}

/** The token lives in sessionStorage: this tab only, gone when it closes. */
const TOKEN_KEY = 'kennect-admin-token'

export function AdminApp() {
  const [api, setApi] = useState<AdminApi | null>(() => {
    const token = sessionStorage.getItem(TOKEN_KEY)
    return token ? createAdminApi(token) : null
  })
  const signOut = () => {
    sessionStorage.removeItem(TOKEN_KEY)
    setApi(null)
  }
  if (!api) {
    return (
      <SignIn
        onSignedIn={(token) => {
          sessionStorage.setItem(TOKEN_KEY, token)
          setApi(createAdminApi(token))
        }}
      />
    )
  }
  return <Dashboard api={api} onSignOut={signOut} />
}

function SignIn({ onSignedIn }: { onSignedIn: (token: string) => void }) {
  const [error, setError] = useState('')
  const [checking, setChecking] = useState(false)
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const token = String(new FormData(event.currentTarget).get('token') ?? '')
    setChecking(true)
    setError('')
    try {
      await createAdminApi(token).stats()
      onSignedIn(token)
    } catch (failure) {
      const status = failure instanceof AdminApiError ? failure.status : 0
      setError(status === 401 ? copy.signIn.refused : status === 429 ? copy.signIn.tooMany : copy.failed)
    } finally {
      setChecking(false)
    }
  }
  return (
    <main className="mx-auto mt-24 max-w-sm rounded-2xl bg-white p-8 shadow">
      <h1 className="text-2xl font-bold text-stone-900">{copy.signIn.heading}</h1>
      <form onSubmit={submit} className="mt-6 grid gap-3">
        <label htmlFor="admin-token" className="text-sm font-medium text-stone-700">
          {copy.signIn.tokenLabel}
        </label>
        <Input id="admin-token" name="token" type="password" required autoComplete="current-password" />
        <Button type="submit" disabled={checking}>
          {checking ? copy.signIn.checking : copy.signIn.submit}
        </Button>
        <p role="alert" className="min-h-5 text-sm font-medium text-red-700">
          {error}
        </p>
        <p className="text-sm text-stone-600">{copy.signIn.note}</p>
      </form>
    </main>
  )
}

function Dashboard({ api, onSignOut }: { api: AdminApi; onSignOut: () => void }) {
  const [stats, setStats] = useState<Stats | null>(null)
  const [rows, setRows] = useState<SignUp[]>([])
  const [next, setNext] = useState<number | null>(null)
  const [search, setSearch] = useState('')
  const [error, setError] = useState('')
  const [exporting, setExporting] = useState(false)

  const fail = useCallback(
    (failure: unknown) => {
      if (failure instanceof AdminApiError && failure.status === 401) return onSignOut()
      setError(copy.failed)
    },
    [onSignOut],
  )
  // The totals load at sign-in and after a removal (statsVersion); a late answer of a page that
  // has moved on is dropped.
  const [statsVersion, setStatsVersion] = useState(0)
  useEffect(() => {
    let current = true
    api.stats().then(
      (fresh) => {
        if (!current) return
        setStats(fresh)
        setError('')
      },
      (failure: unknown) => {
        if (current) fail(failure)
      },
    )
    return () => {
      current = false
    }
  }, [api, fail, statsVersion])

  // The list follows the search box: after a pause in typing, one request; a newer search cancels
  // the one under way, so an older answer can never replace a newer one.
  const [listVersion, setListVersion] = useState(0)
  const atOnce = useRef(true) // the first load and a reload after a removal do not wait
  useEffect(() => {
    const pause = atOnce.current ? 0 : SEARCH_PAUSE_MS
    atOnce.current = false
    const controller = new AbortController()
    const timer = setTimeout(async () => {
      try {
        const page = await api.signups(search, undefined, controller.signal)
        setRows(page.items)
        setNext(page.next)
      } catch (failure) {
        if (!controller.signal.aborted) fail(failure)
      }
    }, pause)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [api, search, fail, listVersion])
  const refresh = useCallback(() => {
    setStatsVersion((version) => version + 1)
    atOnce.current = true
    setListVersion((version) => version + 1)
  }, [])

  async function loadMore() {
    if (next === null) return
    try {
      const page = await api.signups(search, next)
      setRows((current) => [...current, ...page.items])
      setNext(page.next)
    } catch (failure) {
      fail(failure)
    }
  }

  async function remove(email: string) {
    if (!window.confirm(copy.confirmRemove(email))) return
    try {
      await api.remove(email)
      refresh()
    } catch (failure) {
      fail(failure)
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
      fail(failure)
    } finally {
      setExporting(false)
    }
  }

  return (
    <main className="mx-auto max-w-6xl px-5 py-8">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold text-stone-900">{copy.title}</h1>
        <div className="flex gap-3">
          <Button onClick={exportCsv} disabled={exporting}>
            {exporting ? copy.exporting : copy.exportCsv}
          </Button>
          <Button variant="outline" onClick={onSignOut}>
            {copy.signOut}
          </Button>
        </div>
      </header>
      <p role="alert" className="mt-2 text-sm font-medium text-red-700">
        {error}
      </p>
      <div className="mt-4 grid gap-6 lg:grid-cols-[1fr_2fr_1fr]">
        <section aria-labelledby="total-heading" className="min-w-0 rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="total-heading" className="text-sm font-semibold text-stone-600 uppercase">
            {copy.total}
          </h2>
          <p className="mt-2 text-5xl font-extrabold text-stone-900">{stats?.total.toLocaleString('en') ?? '…'}</p>
        </section>
        <section aria-labelledby="chart-heading" className="min-w-0 rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="chart-heading" className="text-sm font-semibold text-stone-600 uppercase">
            {copy.chartLabel}
          </h2>
          {stats && stats.perDay.length === 0 ? <p className="mt-4 text-stone-600">{copy.chartEmpty}</p> : null}
          {stats ? <SignupsChart perDay={stats.perDay} label={copy.chartLabel} /> : null}
          {stats && stats.perDay.length > 0 ? (
            <PerDayTable perDay={stats.perDay} caption={copy.perDayTable} columns={copy.perDayColumns} />
          ) : null}
        </section>
        <section aria-labelledby="sources-heading" className="min-w-0 rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="sources-heading" className="text-sm font-semibold text-stone-600 uppercase">
            {copy.sources}
          </h2>
          <ol className="mt-3 grid gap-1">
            {stats?.perSource.map(({ source, count }) => (
              <li key={source ?? ''} className="flex justify-between gap-3 text-stone-800">
                <span className="truncate">{source ?? copy.direct}</span>
                <span className="font-semibold">{count.toLocaleString('en')}</span>
              </li>
            ))}
          </ol>
        </section>
      </div>
      <FunnelPanel api={api} onFailure={fail} />
      <DemandMap api={api} onFailure={fail} />
      <LaunchPanel api={api} onFailure={fail} />
      <Campaigns api={api} onFailure={fail} />
      <MailPanel api={api} onFailure={fail} />
      <section aria-label={copy.listLabel} className="mt-6 rounded-2xl bg-white p-6 shadow-sm">
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
                <th scope="col" className="w-24 py-2">
                  <span className="sr-only">{copy.columns.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const joined = row.created_at.replace('T', ' ').slice(0, 16)
                const source = row.utm_source ?? row.referrer ?? copy.direct
                return (
                  <tr key={row.id} className="border-t border-stone-200">
                    <td className="py-2 pr-4 align-top">
                      <span className="block font-medium break-all text-stone-900">{row.email}</span>
                      <span className="mt-0.5 block text-xs text-stone-600 sm:hidden">
                        {joined} · {source}
                      </span>
                      <span className="mt-0.5 block text-xs text-stone-600 lg:hidden">
                        {statusOf(row)} · {profileOf(row)}
                      </span>
                    </td>
                    <td className="hidden py-2 pr-4 align-top text-stone-700 sm:table-cell">{joined}</td>
                    <td className="hidden py-2 pr-4 align-top text-stone-700 lg:table-cell">{statusOf(row)}</td>
                    <td className="hidden py-2 pr-4 align-top break-words text-stone-700 lg:table-cell">{profileOf(row)}</td>
                    <td className="hidden py-2 pr-4 align-top break-all text-stone-700 sm:table-cell">{source}</td>
                    <td className="py-2 text-right align-top">
                      <Button variant="outline" size="sm" aria-label={copy.removeLabel(row.email)} onClick={() => void remove(row.email)}>
                        {copy.remove}
                      </Button>
                    </td>
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
    </main>
  )
}
