// The admin page's tables: each in a region named by its caption that scrolls when the table is
// wider or longer than its box, and takes the focus, so a keyboard can scroll it too.
import type { ReactNode } from 'react'
import { cn } from '../lib/cn'

export const th = 'px-3 py-1.5 font-semibold'
export const td = 'px-3 py-1.5 text-stone-800'

export interface Column {
  label: string
  /** Numbers line up on the right. */
  numeric?: boolean
  /** Classes of its header cell (a column shown from a breakpoint up: `hidden sm:table-cell`). */
  className?: string
}

export function TableRegion({
  caption,
  columns,
  children,
  empty,
  framed = true,
  className,
}: {
  caption: string
  columns: readonly Column[]
  children: ReactNode
  /** Said under the header when the table has no rows. */
  empty?: string | null | undefined
  /** A framed table keeps its header in sight as it scrolls, and its caption for screen readers; an open one shows its caption. */
  framed?: boolean
  className?: string
}) {
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label={caption}
      className={cn(
        'min-w-0 overflow-auto focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none',
        framed && 'rounded-lg border border-stone-200',
        className,
      )}
    >
      <table className="w-full text-left text-sm">
        <caption className={framed ? 'sr-only' : 'text-left font-medium text-stone-700'}>{caption}</caption>
        <thead className={framed ? 'sticky top-0 bg-stone-50 text-stone-600' : 'text-stone-600'}>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={cn(th, column.numeric && 'text-right', column.className)}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
      {empty ? <p className="p-3 text-stone-600">{empty}</p> : null}
    </div>
  )
}
