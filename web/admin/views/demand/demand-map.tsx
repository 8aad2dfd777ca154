// Who is waiting, for the team: per country by role (a chart of the largest, a table of all, with
// their phones and those already in the app beside them), the most named breeds, the phones, the
// languages, and role by country with confirmed and not; all of it of one breed's people when the
// filter says so.
import type { ReactNode } from 'react'
import type { Segments } from '../../../../contract/campaigns'
import { adminContent } from '../../content'
import { TableRegion, td } from '../../table'

const copy = adminContent.demand
const CHART_COUNTRIES = 10

const ROLE_BARS = [
  { key: 'breeders', label: copy.columns.breeders, colour: 'bg-brand-700' },
  { key: 'owners', label: copy.columns.owners, colour: 'bg-sky-700' },
  { key: 'clubs', label: copy.columns.clubs, colour: 'bg-emerald-700' },
  { key: 'enthusiasts', label: copy.columns.enthusiasts, colour: 'bg-violet-700' },
  { key: 'unsaid', label: copy.columns.unsaid, colour: 'bg-stone-400' },
] as const

export function DemandMap({
  segments,
  breed,
  filter,
}: {
  segments: Segments | null
  /** The name of the breed `segments` is for; null: everyone. */
  breed: string | null
  /** The breed select, above the map. */
  filter: ReactNode
}) {
  const countries = segments?.byCountry ?? []
  const widest = Math.max(1, ...countries.slice(0, CHART_COUNTRIES).map((c) => c.total))
  return (
    <section aria-labelledby="demand-heading" className="rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="demand-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.heading}
      </h2>
      <div className="mt-3 flex flex-wrap items-end gap-x-4 gap-y-2">
        {filter}
        {breed ? <p className="max-w-xl text-sm text-stone-600 sm:pb-2">{copy.forEveryone}</p> : null}
      </div>
      {segments ? (
        <>
          <p className="mt-3 text-stone-700">
            {copy.totals(segments.total, segments.confirmed, segments.unsubscribed, breed ?? undefined)}
          </p>
          <p className="mt-1 text-stone-700">{copy.claimed(segments.claimed)}</p>
          {segments.imported.total > 0 ? <p className="mt-1 text-stone-700">{copy.imported(segments.imported)}</p> : null}
        </>
      ) : null}
      {segments ? (
        <p className="mt-1 text-sm text-stone-600">
          {adminContent.countedAt(segments.countedAt, breed ? 'filtered' : 'breedsAndInviters')}
        </p>
      ) : null}
      <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.6fr)]">
        {/* The chart shows the table's numbers for the eye; the table beside it is what a screen reader reads. */}
        <figure aria-hidden="true" className="min-w-0">
          <figcaption className="text-sm font-medium text-stone-700">{copy.chartLabel}</figcaption>
          <ul className="mt-2 flex flex-wrap gap-3 text-xs text-stone-700">
            {ROLE_BARS.map((bar) => (
              <li key={bar.key} className="flex items-center gap-1">
                <span className={`size-3 rounded-sm ${bar.colour}`} />
                {bar.label}
              </li>
            ))}
          </ul>
          <div className="mt-3 grid gap-2">
            {countries.slice(0, CHART_COUNTRIES).map((c) => (
              <div key={c.country ?? ''} className="grid grid-cols-[4.5rem_1fr] items-center gap-2 text-sm">
                <span className="truncate text-stone-700">{c.country ?? copy.noCountry}</span>
                <div className="flex h-5 overflow-hidden rounded" style={{ width: `${(c.total / widest) * 100}%` }}>
                  {ROLE_BARS.map((bar) =>
                    c[bar.key] > 0 ? <span key={bar.key} className={bar.colour} style={{ flexGrow: c[bar.key] }} /> : null,
                  )}
                </div>
              </div>
            ))}
          </div>
        </figure>
        <TableRegion
          caption={copy.tableCaption}
          className="max-h-80"
          columns={[
            { label: copy.columns.country },
            ...ROLE_BARS.map((bar) => ({ label: bar.label, numeric: true })),
            { label: copy.columns.total, numeric: true },
            { label: copy.columns.both },
          ]}
          empty={segments && countries.length === 0 ? copy.none : null}
        >
          {countries.map((c) => (
            <tr key={c.country ?? ''} className="border-t border-stone-200">
              <th scope="row" className={`${td} font-medium`}>
                {c.country ?? copy.noCountry}
              </th>
              {ROLE_BARS.map((bar) => (
                <td key={bar.key} className={`${td} text-right`}>
                  {c[bar.key]}
                </td>
              ))}
              <td className={`${td} text-right font-semibold`}>{c.total}</td>
              <td className={td}>{c.breeders > 0 && c.owners > 0 ? copy.both : ''}</td>
            </tr>
          ))}
        </TableRegion>
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <TableRegion
          caption={copy.breedsCaption}
          framed={false}
          columns={[
            { label: copy.breedColumns.breed },
            { label: copy.breedColumns.breeders, numeric: true },
            { label: copy.breedColumns.owners, numeric: true },
            { label: copy.breedColumns.others, numeric: true },
            { label: copy.breedColumns.total, numeric: true },
          ]}
        >
          {segments?.topBreeds.map((b) => (
            <tr key={b.breed} className="border-t border-stone-200">
              <th scope="row" className={`${td} font-medium`}>
                {b.breed}
              </th>
              <td className={`${td} text-right`}>{b.breeders}</td>
              <td className={`${td} text-right`}>{b.owners}</td>
              <td className={`${td} text-right`}>{b.others}</td>
              <td className={`${td} text-right font-semibold`}>{b.total}</td>
            </tr>
          ))}
        </TableRegion>
        <TableRegion
          caption={copy.phonesCaption}
          framed={false}
          columns={[
            { label: copy.columns.country },
            { label: copy.columns.total, numeric: true },
            { label: copy.columns.ios, numeric: true },
            { label: copy.columns.android, numeric: true },
            { label: copy.columns.claimed, numeric: true },
          ]}
        >
          {countries.map((c) => (
            <tr key={c.country ?? ''} className="border-t border-stone-200">
              <th scope="row" className={`${td} font-medium`}>
                {c.country ?? copy.noCountry}
              </th>
              <td className={`${td} text-right font-semibold`}>{c.total}</td>
              <td className={`${td} text-right`}>{c.ios}</td>
              <td className={`${td} text-right`}>{c.android}</td>
              <td className={`${td} text-right`}>{c.claimed}</td>
            </tr>
          ))}
        </TableRegion>
        <TableRegion
          caption={copy.platformsCaption}
          framed={false}
          columns={[
            { label: copy.platformColumns.platform },
            { label: copy.platformColumns.total, numeric: true },
            { label: copy.platformColumns.confirmed, numeric: true },
          ]}
        >
          {segments?.byPlatform.map((p) => (
            <tr key={p.platform ?? ''} className="border-t border-stone-200">
              <th scope="row" className={`${td} font-medium`}>
                {p.platform === null ? copy.noPlatform : copy.platforms[p.platform]}
              </th>
              <td className={`${td} text-right font-semibold`}>{p.total}</td>
              <td className={`${td} text-right`}>{p.confirmed}</td>
            </tr>
          ))}
        </TableRegion>
        <TableRegion
          caption={copy.localesCaption}
          framed={false}
          columns={[
            { label: copy.localeColumns.language },
            { label: copy.localeColumns.total, numeric: true },
            { label: copy.localeColumns.confirmed, numeric: true },
          ]}
        >
          {segments?.byLocale.map((l) => (
            <tr key={l.locale} className="border-t border-stone-200">
              <th scope="row" className={`${td} font-medium`}>
                {adminContent.language(l.locale)}
              </th>
              <td className={`${td} text-right font-semibold`}>{l.total}</td>
              <td className={`${td} text-right`}>{l.confirmed}</td>
            </tr>
          ))}
        </TableRegion>
        <details className="min-w-0">
          <summary className="cursor-pointer font-medium text-stone-700">{copy.roleCountry}</summary>
          {/* In a region that scrolls by itself: the page keeps the phone's width. */}
          <TableRegion
            caption={copy.roleCountry}
            className="mt-2"
            columns={[
              { label: copy.roleCountryColumns.role },
              { label: copy.roleCountryColumns.country },
              { label: copy.roleCountryColumns.confirmed, numeric: true },
              { label: copy.roleCountryColumns.unconfirmed, numeric: true },
            ]}
          >
            {segments?.byRoleCountry.map((r) => (
              <tr key={`${r.role}-${r.country}`} className="border-t border-stone-200">
                <td className={td}>{r.role ?? copy.noRole}</td>
                <td className={td}>{r.country ?? copy.noCountry}</td>
                <td className={`${td} text-right`}>{r.confirmed}</td>
                <td className={`${td} text-right`}>{r.unconfirmed}</td>
              </tr>
            ))}
          </TableRegion>
        </details>
      </div>
    </section>
  )
}
