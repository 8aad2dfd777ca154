// Overview: how many, per day, from where, and the funnel. Figures only, no address: every role.
import type { AdminApi } from '../../api'
import { PerDayTable, SignupsChart } from '../../chart'
import { adminContent as copy } from '../../content'
import { useLoaded } from '../../hooks'
import { useAdmin } from '../../session'
import { FunnelPanel } from './funnel'

const loadStats = (api: AdminApi) => api.stats()

export function OverviewView() {
  const { api, onFailure } = useAdmin()
  const { data: stats } = useLoaded(loadStats)
  return (
    <>
      <div className="grid gap-6 lg:grid-cols-[1fr_2fr_1fr]">
        <section aria-labelledby="total-heading" className="min-w-0 rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="total-heading" className="text-sm font-semibold text-stone-600 uppercase">
            {copy.total}
          </h2>
          <p className="mt-2 text-5xl font-extrabold text-stone-900">{stats ? copy.format.number(stats.total) : '…'}</p>
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
                <span className="font-semibold">{copy.format.number(count)}</span>
              </li>
            ))}
          </ol>
        </section>
      </div>
      <FunnelPanel api={api} onFailure={onFailure} />
    </>
  )
}
