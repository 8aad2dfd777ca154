// Lucide's drawings (the `lucide` package's data) drawn by one component of ours: the stroke
// settings every icon shares are one CSS class (`.icon`, web/theme.css) instead of the attributes
// and class names lucide-react writes on each of the page's forty-odd icons, which weighed 0.7 KB
// of the HTML's gzipped budget (docs/decisions/016-languages.md). Hidden from screen readers: the
// words beside an icon say what it shows. A size class (`size-5`) is always given.
import type { IconNode } from 'lucide'
import { createElement } from 'react'
import { cn } from '../lib/cn'

export function SvgIcon({ icon, className }: { icon: IconNode; className: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className={cn('icon', className)}>
      {icon.map(([tag, attributes], i) => createElement(tag, { key: i, ...attributes }))}
    </svg>
  )
}
