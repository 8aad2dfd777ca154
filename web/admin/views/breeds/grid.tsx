// The breeds as a picture (issue 52, item 4): breed by country, each cell split in two, its studs
// on the left and its dams on the right, each half as dark as its side is near the breed's target,
// the ready ones marked. One hue, lighter to darker, so that the steps read without telling colours
// apart (colour-blind operators too), and a table underneath it all: a screen reader reads each cell's
// numbers, and hovering or focusing a cell shows them. A cell opens its breed's figures in that country.
import { useRef, useState } from 'react'
import { type BreedCountryCount, type BreedMeter, isBreedReady } from '../../../../contract/breed-meters'
import { cn } from '../../../lib/cn'
import { adminContent } from '../../content'

const copy = adminContent.breeds
const grid = copy.grid
const number = adminContent.format.number
const countryName = adminContent.format.country

/** How many breeds and countries the picture shows at once: the rest are a filter away. */
export const GRID_BREEDS = 20
export const GRID_COUNTRIES = 12

/** The steps of a side's way to its target: none, under ¼, ¼ to ½, ½ to ¾, ¾ or more, there. */
export const LEVELS = ['none', 'quarter', 'half', 'most', 'near', 'full'] as const
export type Level = (typeof LEVELS)[number]

export function levelOf(count: number, target: number): Level {
  if (count <= 0 && target > 0) return 'none'
  const share = target <= 0 ? 1 : count / target
  if (share >= 1) return 'full'
  return share < 0.25 ? 'quarter' : share < 0.5 ? 'half' : share < 0.75 ? 'most' : 'near'
}

/** Each step's colour: the admin's `--grid-*` colours (admin.css), lighter to darker in either scheme. */
const FILL: Record<Level, string> = {
  none: 'bg-(--grid-none)',
  quarter: 'bg-(--grid-1)',
  half: 'bg-(--grid-2)',
  most: 'bg-(--grid-3)',
  near: 'bg-(--grid-4)',
  full: 'bg-(--grid-5)',
}

interface Cell {
  meter: BreedMeter
  country: string
  count: BreedCountryCount | undefined
}

/**
 * The rows and columns the picture shows: the breeds with a target of their own first, then the
 * most named; the countries with the most breeders' dogs (studs and dams) first.
 */
export function gridOf(meters: readonly BreedMeter[]): {
  breeds: BreedMeter[]
  countries: string[]
  /** The sides the picture cuts, each with how many it shows, or null where it shows them all. */
  cut: { breeds: number | null; countries: number | null }
} {
  const own = (meter: BreedMeter) => (meter.ownTarget ? 1 : 0)
  const breeds = [...meters].sort(
    (a, b) => own(b) - own(a) || b.all.profiles - a.all.profiles || a.name.localeCompare(b.name, adminContent.locale),
  )
  const dogs = new Map<string, number>()
  for (const meter of meters) for (const row of meter.countries) dogs.set(row.country, (dogs.get(row.country) ?? 0) + row.studs + row.dams)
  const countries = [...dogs].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([code]) => code)
  return {
    breeds: breeds.slice(0, GRID_BREEDS),
    countries: countries.slice(0, GRID_COUNTRIES),
    cut: {
      breeds: breeds.length > GRID_BREEDS ? GRID_BREEDS : null,
      countries: countries.length > GRID_COUNTRIES ? GRID_COUNTRIES : null,
    },
  }
}

/** Both sides at their target, by the contract's rule: a cell with no row is ready where its targets are 0. */
const readyOf = ({ meter, count }: Cell) => isBreedReady(count ?? { studs: 0, dams: 0 }, meter.target)

/** What a cell says in words: to a screen reader, and on hover and focus. */
const cellWords = (cell: Cell) =>
  grid.cell({
    breed: cell.meter.name,
    country: countryName(cell.country),
    studs: number(cell.count?.studs ?? 0),
    studsTarget: number(cell.meter.target.studs),
    dams: number(cell.count?.dams ?? 0),
    damsTarget: number(cell.meter.target.dams),
    ready: readyOf(cell),
  })

export function BreedsGrid({ meters }: { meters: readonly BreedMeter[] }) {
  // The cell opened, by its breed and country: its figures are read from the meters as they are now
  // (after a target is saved or a filter changed), and its button takes the focus back on close.
  const [open, setOpen] = useState<{ breed: string; country: string } | null>(null)
  const details = useRef<HTMLElement>(null)
  const opener = useRef<HTMLButtonElement | null>(null)
  const region = useRef<HTMLDivElement>(null)
  const { breeds, countries, cut } = gridOf(meters)
  if (breeds.length === 0 || countries.length === 0) return null
  const show = (cell: Cell, button: HTMLButtonElement) => {
    opener.current = button
    setOpen({ breed: cell.meter.id, country: cell.country })
    // The figures take the focus, as a page opened would.
    requestAnimationFrame(() => details.current?.focus())
  }
  const close = () => {
    setOpen(null)
    // The cell, if a filter has not taken it away meanwhile; else the picture.
    requestAnimationFrame(() => (opener.current?.isConnected ? opener.current : region.current)?.focus())
  }
  const openMeter = open ? meters.find((meter) => meter.id === open.breed) : undefined
  const openCell: Cell | undefined =
    open && openMeter
      ? { meter: openMeter, country: open.country, count: openMeter.countries.find((row) => row.country === open.country) }
      : undefined
  return (
    <div className="mt-4">
      <Legend />
      <div
        ref={region}
        tabIndex={0}
        role="region"
        aria-label={grid.caption}
        className="mt-2 min-w-0 overflow-auto rounded-lg border border-stone-200 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none"
      >
        <table className="border-separate border-spacing-1 text-sm">
          <caption className="sr-only">{grid.caption}</caption>
          <thead>
            <tr>
              <td />
              {countries.map((code) => (
                <th key={code} scope="col" className="px-1 text-center text-xs font-semibold text-stone-700">
                  <abbr title={countryName(code)} className="no-underline">
                    {code}
                  </abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {breeds.map((meter) => (
              <tr key={meter.id}>
                <th scope="row" className="max-w-48 truncate pr-2 text-left text-xs font-medium text-stone-800" title={meter.name}>
                  {meter.name}
                </th>
                {countries.map((code) => {
                  const cell: Cell = { meter, country: code, count: meter.countries.find((row) => row.country === code) }
                  return <GridCell key={code} cell={cell} onOpen={(button) => show(cell, button)} />
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {cut.breeds !== null || cut.countries !== null ? <p className="mt-2 text-xs text-stone-600">{grid.more(cut)}</p> : null}
      {openCell ? <Details cell={openCell} onClose={close} focusRef={details} /> : null}
    </div>
  )
}

function GridCell({ cell, onOpen }: { cell: Cell; onOpen: (button: HTMLButtonElement) => void }) {
  const { meter, count } = cell
  const studs = levelOf(count?.studs ?? 0, meter.target.studs)
  const dams = levelOf(count?.dams ?? 0, meter.target.dams)
  const words = cellWords(cell)
  const ready = readyOf(cell)
  return (
    <td className="p-0">
      <button
        type="button"
        onClick={(event) => onOpen(event.currentTarget)}
        data-studs={studs}
        data-dams={dams}
        className={cn(
          'group relative flex size-9 overflow-visible rounded-sm border focus-visible:ring-4 focus-visible:ring-brand-300 focus-visible:outline-none',
          ready ? 'border-2 border-(--grid-ready)' : 'border-stone-300',
        )}
      >
        <span aria-hidden="true" className={cn('h-full w-1/2 rounded-l-[1px]', FILL[studs])} />
        <span aria-hidden="true" className={cn('h-full w-1/2 rounded-r-[1px] border-l border-(--grid-divider)', FILL[dams])} />
        {ready ? (
          <svg aria-hidden="true" viewBox="0 0 16 16" className="absolute inset-0 m-auto size-4 text-(--grid-mark)">
            <path
              d="M3 8.5 6.5 12 13 4.5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        ) : null}
        <span className="sr-only">{words}</span>
        {/* The same words for the eye: the button's name has them once for a screen reader. */}
        <span
          aria-hidden="true"
          className="pointer-events-none absolute top-full left-1/2 z-10 mt-1 hidden w-max max-w-64 -translate-x-1/2 rounded-md bg-stone-900 px-2 py-1 text-left text-xs text-stone-50 shadow-lg group-hover:block group-focus-visible:block"
        >
          {words}
        </span>
      </button>
    </td>
  )
}

function Legend() {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-xs text-stone-700">
      <span className="font-medium">{grid.legend}</span>
      <ul className="flex flex-wrap gap-x-3 gap-y-1" aria-label={grid.legend}>
        {LEVELS.map((level) => (
          <li key={level} className="flex items-center gap-1">
            <span aria-hidden="true" className={cn('inline-block size-3.5 rounded-sm border border-stone-300', FILL[level])} />
            {grid.levels[level]}
          </li>
        ))}
        <li className="flex items-center gap-1">
          <span
            aria-hidden="true"
            className="inline-flex size-3.5 items-center justify-center rounded-sm border-2 border-(--grid-ready) bg-(--grid-5)"
          >
            <svg viewBox="0 0 16 16" className="size-2.5 text-(--grid-mark)">
              <path
                d="M3 8.5 6.5 12 13 4.5"
                fill="none"
                stroke="currentColor"
                strokeWidth="3"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </span>
          {grid.ready}
        </li>
      </ul>
      <span>{grid.halves}</span>
    </div>
  )
}

/** A cell's breed in its country: the figures the table below has, one breed and one country. */
function Details({ cell, onClose, focusRef }: { cell: Cell; onClose: () => void; focusRef: React.RefObject<HTMLElement | null> }) {
  const { meter, country, count } = cell
  const figures: [string, string][] = [
    [copy.columns.studs, grid.of({ have: number(count?.studs ?? 0), want: number(meter.target.studs) })],
    [copy.columns.dams, grid.of({ have: number(count?.dams ?? 0), want: number(meter.target.dams) })],
    [copy.columns.seekers, number(count?.seekers ?? 0)],
    [copy.columns.ready, readyOf(cell) ? copy.ready : copy.notReady],
  ]
  return (
    <section
      ref={focusRef}
      tabIndex={-1}
      aria-labelledby="grid-details-heading"
      className="mt-3 rounded-lg border border-stone-200 p-4 focus:outline-none focus-visible:ring-4 focus-visible:ring-brand-200"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 id="grid-details-heading" className="font-semibold text-stone-900">
          {grid.details({ breed: meter.name, country: copy.place(countryName(country), country) })}
        </h3>
        <button
          type="button"
          onClick={onClose}
          className="rounded-md px-2 text-sm text-stone-700 underline focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none"
        >
          {grid.close}
        </button>
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt className="text-stone-600">{label}</dt>
            <dd className="text-lg font-semibold text-stone-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
