// Where matches are ready (docs/breeds.md): each breed's studs, dams and seekers per country against
// its target, filtered and downloaded as CSV. Figures for every role; the targets for those who may
// change settings, and the names the catalogue missed for those who may map them.
import { type ReactNode, useCallback, useState } from 'react'
import type { BreedCountryCount, BreedMeter } from '../../../../contract/breed-meters'
import { SEGMENT_SIDES } from '../../../../contract/breed-meters'
import { buttonVariants } from '../../../components/ui/button'
import { cn } from '../../../lib/cn'
import { type AdminApi, type BreedFilter, breedsCsvUrl } from '../../api'
import { adminContent } from '../../content'
import { useLoaded } from '../../hooks'
import { useAdmin } from '../../session'
import { TableRegion, td } from '../../table'
import { BreedsGrid } from './grid'
import { BreedTargetsPanel } from './targets'
import { UnmatchedPanel } from './unmatched'

const copy = adminContent.breeds
const number = adminContent.format.number
const countryName = adminContent.format.country
const select =
  'mt-1 h-9 w-full rounded-md border border-stone-300 bg-white px-2 text-sm text-stone-900 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none sm:w-auto'

const ANY: BreedFilter = { breed: '', country: '', side: '' }

/** What the selects offer: every breed (id to name) and country seen since the view opened. */
interface Choices {
  breeds: ReadonlyMap<string, string>
  countries: ReadonlySet<string>
}

const choicesWith = (choices: Choices, meters: readonly BreedMeter[]): Choices => ({
  breeds: new Map([...choices.breeds, ...meters.map((meter): [string, string] => [meter.id, meter.name])]),
  countries: new Set([...choices.countries, ...meters.flatMap((meter) => meter.countries.map((row) => row.country))]),
})

export function BreedsView() {
  const { can } = useAdmin()
  const [filter, setFilter] = useState<BreedFilter>(ANY)
  // The selects keep what earlier answers had: an answer filtered to one breed would otherwise
  // leave the breed select nothing else to choose.
  const [choices, setChoices] = useState<Choices>({ breeds: new Map(), countries: new Set() })
  // A new filter is a new load: useLoaded asks again and drops an answer to the filter before.
  const load = useCallback(
    async (api: AdminApi) => {
      const answer = await api.breeds(filter)
      setChoices((current) => choicesWith(current, answer.breeds))
      return answer
    },
    [filter],
  )
  const { data, reload } = useLoaded(load)
  const choose = (change: Partial<BreedFilter>) => setFilter((current) => ({ ...current, ...change }))

  const breedOptions = [...choices.breeds].sort(([, a], [, b]) => a.localeCompare(b, adminContent.locale))
  const countryOptions = [...choices.countries].sort((a, b) => countryName(a).localeCompare(countryName(b), adminContent.locale))
  return (
    <>
      <section aria-labelledby="breeds-heading" className="rounded-2xl bg-white p-6 shadow-sm">
        <h2 id="breeds-heading" className="text-sm font-semibold text-stone-600 uppercase">
          {copy.heading}
        </h2>
        <p className="mt-2 max-w-3xl text-sm text-stone-700">{copy.intro}</p>
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <div className="w-full sm:w-auto">
            <label htmlFor="breeds-breed" className="block text-sm text-stone-700">
              {copy.breed}
            </label>
            <select id="breeds-breed" className={select} value={filter.breed} onChange={(event) => choose({ breed: event.target.value })}>
              <option value="">{copy.anyBreed}</option>
              {breedOptions.map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <div className="w-full sm:w-auto">
            <label htmlFor="breeds-country" className="block text-sm text-stone-700">
              {copy.country}
            </label>
            <select
              id="breeds-country"
              className={select}
              value={filter.country}
              onChange={(event) => choose({ country: event.target.value })}
            >
              <option value="">{copy.anyCountry}</option>
              {countryOptions.map((code) => (
                <option key={code} value={code}>
                  {copy.place(countryName(code), code)}
                </option>
              ))}
            </select>
          </div>
          <div className="w-full sm:w-auto">
            <label htmlFor="breeds-side" className="block text-sm text-stone-700">
              {copy.side}
            </label>
            <select
              id="breeds-side"
              className={select}
              value={filter.side}
              onChange={(event) => choose({ side: event.target.value as BreedFilter['side'] })}
            >
              {(['', ...SEGMENT_SIDES] as const).map((side) => (
                <option key={side} value={side}>
                  {copy.sides[side]}
                </option>
              ))}
            </select>
          </div>
          {/* A link, not a fetch: the download needs no recent sign-in, and the cookie goes with it. */}
          <a href={breedsCsvUrl(filter)} download className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'sm:ml-auto')}>
            {copy.downloadCsv}
          </a>
        </div>
        <p className="mt-3 text-xs text-stone-600">{data ? copy.counted(data.countedAt) : '…'}</p>
        {/* The picture first: which breeds are close, where; the table after, row by row. */}
        <section aria-labelledby="breeds-grid-heading" className="mt-4">
          <h3 id="breeds-grid-heading" className="font-semibold text-stone-900">
            {copy.grid.heading}
          </h3>
          {data ? <BreedsGrid meters={data.breeds} /> : null}
        </section>
        <MetersTable meters={data?.breeds ?? null} filter={filter} />
      </section>
      {can('settings:write') || can('breeds:map') ? (
        <div className="mt-6 grid gap-6 lg:grid-cols-2">
          {can('settings:write') ? <BreedTargetsPanel onSaved={reload} /> : null}
          {can('breeds:map') ? <UnmatchedPanel onMapped={reload} /> : null}
        </div>
      ) : null}
    </>
  )
}

/** One row per country of each breed, then all its countries pooled (unless one country is chosen). */
function MetersTable({ meters, filter }: { meters: readonly BreedMeter[] | null; filter: BreedFilter }) {
  const filtered = filter.breed !== '' || filter.country !== '' || filter.side !== ''
  return (
    <TableRegion
      caption={copy.caption}
      className="mt-2 max-h-[36rem]"
      columns={[
        { label: copy.columns.breed },
        { label: copy.columns.country },
        { label: copy.columns.studs, numeric: true },
        { label: copy.columns.dams, numeric: true },
        { label: copy.columns.seekers, numeric: true },
        { label: copy.columns.target, numeric: true, className: 'whitespace-nowrap' },
        { label: copy.columns.ready },
      ]}
      empty={meters && meters.length === 0 ? (filtered ? copy.noneFiltered : copy.none) : null}
    >
      {meters?.flatMap((meter) => [
        ...meter.countries.map((row, i) => (
          <MeterRow
            key={`${meter.id}|${row.country}`}
            meter={meter}
            place={
              <>
                {/* On a phone the code alone, so the numbers come nearer into sight. */}
                <span className="sm:hidden">{row.country}</span>
                <span className="hidden sm:inline">{copy.place(countryName(row.country), row.country)}</span>
              </>
            }
            count={row}
            first={i === 0}
          />
        )),
        // The pooled row counts every country (and profiles that name none): under a chosen
        // country it would say more than that country.
        filter.country === '' ? (
          <MeterRow
            key={`${meter.id}|all`}
            meter={meter}
            place={copy.allCountries}
            count={meter.all}
            first={meter.countries.length === 0}
            pooled
          />
        ) : null,
      ])}
    </TableRegion>
  )
}

function MeterRow({
  meter,
  place,
  count,
  first,
  pooled = false,
}: {
  meter: BreedMeter
  place: ReactNode
  count: Pick<BreedCountryCount, 'studs' | 'dams' | 'seekers' | 'ready'>
  /** The breed's first row: a darker line above it sets the breeds apart. */
  first: boolean
  pooled?: boolean
}) {
  const numeric = `${td} text-right tabular-nums`
  return (
    <tr className={cn('border-t', first ? 'border-stone-400' : 'border-stone-200', pooled && 'bg-stone-50')}>
      <th scope="row" className={cn(td, 'font-medium')}>
        {meter.name}
      </th>
      <td className={cn(td, pooled && 'font-semibold')}>{place}</td>
      <td className={numeric}>{number(count.studs)}</td>
      <td className={numeric}>{number(count.dams)}</td>
      <td className={numeric}>{number(count.seekers)}</td>
      <td className={`${numeric} whitespace-nowrap`}>{copy.target(meter.target)}</td>
      <td className={td}>
        {count.ready ? (
          <span className="inline-block rounded-full bg-emerald-100 px-2 text-xs font-semibold text-emerald-900">{copy.ready}</span>
        ) : (
          <span className="text-stone-600">{copy.notReady}</span>
        )}
      </td>
    </tr>
  )
}
