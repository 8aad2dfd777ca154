// The suppression list (docs/decisions/019-suppression.md) for those who may read addresses:
// searched as one types, downloaded as CSV; added to and lifted by those who may change it.
import { type FormEvent, useState } from 'react'
import type { Suppression } from '../../../../contract/mail-events'
import { Button, buttonVariants } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { cn } from '../../../lib/cn'
import { type AdminApi, suppressionsCsvUrl } from '../../api'
import { adminContent } from '../../content'
import { useAction, useSearched } from '../../hooks'
import { ActionOutcome } from '../../outcome'
import { useAdmin } from '../../session'
import { TableRegion, td } from '../../table'

const copy = adminContent.deliverability
/** The suppressions a search finds. */
const suppressionsFound = (api: AdminApi, search: string, signal: AbortSignal) => api.suppressions(search.trim(), signal)

export function SuppressionsPanel() {
  const { api, can } = useAdmin()
  const writable = can('suppressions:write')
  const [search, setSearch] = useState('')
  const [items, setItems] = useState<Suppression[] | null>(null)
  const reload = useSearched(search, suppressionsFound, setItems)
  // A refusal says why beside the form: not an address (400), nothing to lift (404).
  const change = useAction(reload, [400, 404])

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const email = String(new FormData(form).get('email') ?? '').trim()
    let answer: { email: string; added: boolean } | undefined
    await change.act(async () => {
      answer = await api.suppress(email)
    })
    if (answer) {
      change.setNotice(answer.added ? copy.added(answer.email) : copy.already(answer.email))
      form.reset()
    }
  }

  async function lift(email: string) {
    if (!window.confirm(copy.confirmLift(email))) return
    await change.act(() => api.liftSuppression(email), copy.lifted(email))
  }

  const columns = [
    { label: copy.suppressionColumns.email },
    { label: copy.suppressionColumns.reason },
    { label: copy.suppressionColumns.at, className: 'whitespace-nowrap' },
    ...(writable ? [{ label: copy.suppressionColumns.actions }] : []),
  ]
  return (
    <section aria-labelledby="suppressions-heading" className="mt-6 rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="suppressions-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.suppressions}
      </h2>
      <p className="mt-2 max-w-3xl text-sm text-stone-700">{copy.suppressionsIntro}</p>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <div className="w-full sm:w-80">
          <label htmlFor="suppressions-search" className="block text-sm text-stone-700">
            {copy.search}
          </label>
          <Input
            id="suppressions-search"
            type="search"
            placeholder={copy.searchPlaceholder}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="mt-1 h-10"
          />
        </div>
        {/* A link, not a fetch: the download needs no recent sign-in, and the cookie goes with it. */}
        <a href={suppressionsCsvUrl} download className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'sm:ml-auto')}>
          {copy.downloadCsv}
        </a>
      </div>
      {writable ? (
        <form onSubmit={(event) => void add(event)} className="mt-4 flex flex-wrap items-end gap-3">
          <div className="w-full sm:w-80">
            <label htmlFor="suppressions-add" className="block text-sm text-stone-700">
              {copy.addLabel}
            </label>
            <Input id="suppressions-add" name="email" type="email" required autoComplete="off" spellCheck={false} className="mt-1 h-10" />
          </div>
          <Button type="submit">{copy.addButton}</Button>
        </form>
      ) : null}
      <ActionOutcome notice={change.notice} problem={change.problem} />
      <TableRegion
        caption={copy.suppressionsCaption}
        className="mt-2 max-h-[32rem]"
        columns={columns}
        empty={items && items.length === 0 ? (search.trim() ? copy.noMatches : copy.noSuppressions) : null}
      >
        {items?.map((item, i) => (
          <tr key={item.email ?? `forgotten-${i}`} className="border-t border-stone-200">
            <th scope="row" className={cn(td, 'font-medium break-all', item.email === null && 'font-normal text-stone-600 italic')}>
              {item.email ?? copy.forgotten}
            </th>
            <td className={td}>{copy.reasons[item.reason]}</td>
            <td className={cn(td, 'whitespace-nowrap tabular-nums')}>{adminContent.format.dateTime(item.at)}</td>
            {writable ? (
              <td className={td}>
                {item.email ? (
                  <Button variant="outline" size="sm" aria-label={copy.liftLabel(item.email)} onClick={() => void lift(item.email ?? '')}>
                    {copy.lift}
                  </Button>
                ) : null}
              </td>
            ) : null}
          </tr>
        ))}
      </TableRegion>
    </section>
  )
}
