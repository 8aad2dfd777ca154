// The audit log for owners: who did what, newest first, fifty at a time.
import { useEffect, useState } from 'react'
import type { AuditItem } from '../../../../contract/team'
import { Button } from '../../../components/ui/button'
import { adminContent } from '../../content'
import { useAdmin } from '../../session'
import { TableRegion, td } from '../../table'

const copy = adminContent.audit

const detailOf = (detail: AuditItem['detail']) =>
  detail
    ? Object.entries(detail)
        .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(', ')
    : ''

export function AuditView() {
  const { api, onFailure } = useAdmin()
  const [items, setItems] = useState<AuditItem[] | null>(null)
  const [next, setNext] = useState<number | null>(null)
  useEffect(() => {
    let current = true
    api.audit().then(
      (page) => {
        if (!current) return
        setItems(page.items)
        setNext(page.next)
      },
      (failure: unknown) => current && onFailure(failure),
    )
    return () => {
      current = false
    }
  }, [api, onFailure])
  async function more() {
    if (next === null) return
    try {
      const page = await api.audit(next)
      setItems((shown) => [...(shown ?? []), ...page.items])
      setNext(page.next)
    } catch (failure) {
      onFailure(failure)
    }
  }
  return (
    <section aria-labelledby="audit-heading" className="rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="audit-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.heading}
      </h2>
      <p className="mt-2 text-sm text-stone-700">{copy.intro}</p>
      <TableRegion
        caption={copy.caption}
        className="mt-4"
        columns={[
          { label: copy.columns.at },
          { label: copy.columns.actor },
          { label: copy.columns.action },
          { label: copy.columns.target },
          { label: copy.columns.detail },
        ]}
        empty={items && items.length === 0 ? copy.none : null}
      >
        {items?.map((item) => (
          <tr key={item.id} className="border-t border-stone-200 align-top">
            <td className={`${td} whitespace-nowrap`}>{adminContent.format.instant(item.at)}</td>
            {/* An address stays on one line: on a phone the table scrolls in its region instead. */}
            <td className={`${td} whitespace-nowrap`}>{item.actor}</td>
            <th scope="row" className={`${td} font-medium`}>
              {copy.action(item.action)}
            </th>
            <td className={`${td} whitespace-nowrap`}>{item.target ?? ''}</td>
            <td className={`${td} min-w-64 break-words`}>{detailOf(item.detail)}</td>
          </tr>
        ))}
      </TableRegion>
      {next !== null ? (
        <Button variant="outline" className="mt-4" onClick={() => void more()}>
          {copy.more}
        </Button>
      ) : null}
    </section>
  )
}
