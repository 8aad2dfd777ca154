import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type { Stats } from '../../contract/admin-api'
import { adminContent } from './content'
import { TableRegion, td } from './table'

const DAY_S = 86_400
const HEIGHT_PX = 220
/** Half a day label's width (the longest: "24 de nov. de 2026" at uPlot's 12 px), and a little more. */
const LABEL_ROOM_PX = 56
/** Steps between labelled days: whole days and weeks only, never hours. */
const DAY_STEPS = [1, 2, 7, 14, 28, 56, 91, 182, 364].map((days) => days * DAY_S)

/** An axis label: the UTC day as the table writes it, in the operator's language (23 Nov 2026, 23.11.2026). */
export const dayLabel = (seconds: number) => adminContent.format.day(new Date(seconds * 1000).toISOString())

/**
 * Sign-ups per day as bars, drawn by uPlot on a canvas at the width of its box (it follows the
 * window); the table beside it (PerDayTable) carries the same numbers for screen readers.
 */
export function SignupsChart({ perDay, label }: { perDay: Stats['perDay']; label: string }) {
  const container = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = container.current
    if (!element || perDay.length === 0) return
    // An empty day either side, so a single day shows as a bar, not a point on a years-long axis.
    const days = perDay.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000)
    days.unshift((days[0] ?? 0) - DAY_S)
    days.push((days.at(-1) ?? 0) + DAY_S)
    const counts = [0, ...perDay.map((d) => d.count), 0]
    // The axes in the page's muted text colour: the light scheme's or the dark one's (admin.css).
    const axis = getComputedStyle(element).getPropertyValue('--color-stone-600').trim() || '#57534e'
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT_PX,
        legend: { show: false },
        // Room on the right for half the last day's label (uPlot centres labels on their day; with
        // few days the last one sits at the very edge and was cut).
        padding: [null, LABEL_ROOM_PX, null, null],
        // UTC throughout, as the days are counted (the browser's zone would shift the bars).
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          { stroke: axis, incrs: DAY_STEPS, space: 120, values: (_u, splits) => splits.map(dayLabel) },
          { stroke: axis, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000] },
        ],
        series: [{}, { label, stroke: '#c2410c', fill: 'rgba(194, 65, 12, 0.25)', paths: uPlot.paths.bars?.({ size: [0.6, 40] }) }],
      },
      [days, counts],
      element,
    )
    // The box, not the window: the grid may change its width without a window resize.
    const observer = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT_PX }))
    observer.observe(element)
    return () => {
      observer.disconnect()
      chart.destroy()
    }
  }, [perDay, label])
  return <div ref={container} role="img" aria-label={label} className="w-full min-w-0 overflow-hidden" />
}

/** The chart's numbers as a table, newest day first, in a box that scrolls (and takes focus to). */
export function PerDayTable({
  perDay,
  caption,
  columns,
}: {
  perDay: Stats['perDay']
  caption: string
  columns: { day: string; count: string }
}) {
  return (
    <TableRegion caption={caption} className="mt-4 max-h-40" columns={[{ label: columns.day }, { label: columns.count, numeric: true }]}>
      {[...perDay].reverse().map(({ day, count }) => (
        <tr key={day} className="border-t border-stone-200">
          <td className={td}>{adminContent.format.day(day)}</td>
          <td className={`${td} text-right font-semibold text-stone-900`}>{adminContent.format.number(count)}</td>
        </tr>
      ))}
    </TableRegion>
  )
}
