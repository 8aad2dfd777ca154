import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type { Stats } from './types'

const DAY_S = 86_400

/** Sign-ups per day as bars, drawn by uPlot on a canvas; the table beside it carries the numbers. */
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
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: 220,
        legend: { show: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [{ stroke: '#57534e' }, { stroke: '#57534e' }],
        series: [{}, { label, stroke: '#c2410c', fill: 'rgba(194, 65, 12, 0.25)', paths: uPlot.paths.bars?.({ size: [0.6, 40] }) }],
      },
      [days, counts],
      element,
    )
    const resize = () => chart.setSize({ width: element.clientWidth, height: 220 })
    window.addEventListener('resize', resize)
    return () => {
      window.removeEventListener('resize', resize)
      chart.destroy()
    }
  }, [perDay, label])
  return <div ref={container} role="img" aria-label={label} className="w-full" />
}
