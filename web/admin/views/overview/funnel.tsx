// The funnel for the team (docs/decisions/015-growth.md): views to inviters, per day and per
// source, counted without a cookie. The cohorts may be narrowed to one breed's people; the views
// never are (a page view has no breed).
import { type FormEvent, useEffect, useState } from 'react'
import type { Funnel, FunnelDay, FunnelHandOff } from '../../../../contract/growth'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { AdminApiError, type AdminApi } from '../../api'
import { adminContent } from '../../content'
import { TableRegion, td } from '../../table'
import { BreedSelect, breedName, useBreedChoices } from '../demand/breed-select'

const copy = adminContent.funnel
const number = adminContent.format.number
const day = (time: number) => new Date(time).toISOString().slice(0, 10)

/** The last 30 UTC days, as the API answers when not told. */
function lastDays(): { since: string; until: string } {
  const now = Date.now()
  return { since: day(now - 29 * 86_400_000), until: day(now) }
}

const totalsOf = (days: readonly FunnelDay[]) =>
  days.reduce(
    (sum, d) => ({
      views: sum.views + d.views,
      visitors: sum.visitors + d.visitors,
      signups: sum.signups + d.signups,
      confirmed: sum.confirmed + d.confirmed,
      profiled: sum.profiled + d.profiled,
      inviters: sum.inviters + d.inviters,
    }),
    { views: 0, visitors: 0, signups: 0, confirmed: 0, profiled: 0, inviters: 0 },
  )

export function FunnelPanel({ api, onFailure }: { api: AdminApi; onFailure: (failure: unknown) => void }) {
  const [range, setRange] = useState(() => ({ ...lastDays(), breed: '' }))
  const [funnel, setFunnel] = useState<Funnel | null>(null)
  // The breed of the answer shown (not of the select): the note names what the numbers are for.
  const [shownBreed, setShownBreed] = useState('')
  const [problem, setProblem] = useState('')
  const choices = useBreedChoices()
  useEffect(() => {
    let current = true
    api.funnel(range.since, range.until, range.breed || undefined).then(
      (fresh) => {
        if (!current) return
        setFunnel(fresh)
        setShownBreed(range.breed)
        setProblem('')
      },
      (failure: unknown) => {
        if (!current) return
        if (failure instanceof AdminApiError && failure.status === 400) setProblem(adminContent.refusal(failure))
        else onFailure(failure)
      },
    )
    return () => {
      current = false
    }
  }, [api, onFailure, range])

  function choose(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setRange({ since: String(form.get('since') ?? ''), until: String(form.get('until') ?? ''), breed: String(form.get('breed') ?? '') })
  }

  const totals = funnel ? totalsOf(funnel.days) : null
  const widest = Math.max(1, totals?.visitors ?? 0, totals?.signups ?? 0)
  return (
    <section aria-labelledby="funnel-heading" className="mt-6 rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="funnel-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.heading}
      </h2>
      <p className="mt-2 max-w-3xl text-sm text-stone-700">{copy.intro}</p>
      <form onSubmit={choose} className="mt-4 flex flex-wrap items-end gap-3">
        {(['since', 'until'] as const).map((name) => (
          <div key={name}>
            <label htmlFor={`funnel-${name}`} className="block text-sm text-stone-700">
              {copy[name]}
            </label>
            <Input id={`funnel-${name}`} name={name} type="date" required defaultValue={range[name]} className="mt-1" />
          </div>
        ))}
        {/* A breed shows at once, with the days as typed: what is shown is always what the form says. */}
        <BreedSelect
          id="funnel-breed"
          name="breed"
          choices={choices}
          defaultValue=""
          look="field"
          onChange={(event) => event.currentTarget.form?.requestSubmit()}
        />
        <Button type="submit" variant="outline">
          {copy.show}
        </Button>
        <p role="alert" className="w-full text-sm font-medium text-red-700 empty:hidden">
          {problem}
        </p>
      </form>
      {funnel && shownBreed ? (
        <p className="mt-3 max-w-3xl text-sm text-stone-700">{copy.breedNote(breedName(choices, shownBreed))}</p>
      ) : null}
      {funnel ? <p className="mt-3 text-sm text-stone-600">{adminContent.countedAt(funnel.countedAt, 'signups')}</p> : null}
      {totals ? (
        // The chart is a list: each step's words and numbers are read, its bar only seen.
        <StepChart
          label={copy.chartLabel}
          // Sign-ups per visit, not a share of the visitors (the API's sign-ups visited no page); the
          // steps after as shares of the sign-ups, the cohort that holds each of them (a sign-up may
          // tell their profile without confirming: of the step before, that read 200 %).
          steps={copy.stages.map(([key, label]) => {
            const note =
              key === 'visitors'
                ? ''
                : key === 'signups'
                  ? copy.perVisitNote(totals.signups, totals.visitors)
                  : `${copy.rate(totals[key], totals.signups)} ${copy.ofSignups}`
            return [label, totals[key], note] as const
          })}
          widest={widest}
          className="mt-5"
          bar="bg-brand-700"
        />
      ) : null}
      {funnel ? <HandOff handOff={funnel.handOff} breed={shownBreed ? breedName(choices, shownBreed) : null} /> : null}
      {funnel ? (
        <div className="mt-6 grid gap-6">
          <TableRegion
            caption={copy.daysCaption}
            className="max-h-80"
            columns={[
              { label: copy.columns.day },
              ...(['views', 'visitors', 'signups', 'confirmed', 'profiled', 'inviters', 'joined', 'confirmedRate'] as const).map((key) => ({
                label: copy.columns[key],
                numeric: true,
              })),
            ]}
          >
            {[...funnel.days].reverse().map((d) => (
              <tr key={d.day} className="border-t border-stone-200">
                <th scope="row" className={`${td} font-medium whitespace-nowrap`}>
                  {adminContent.format.day(d.day)}
                </th>
                {[d.views, d.visitors, d.signups, d.confirmed, d.profiled, d.inviters].map((n, i) => (
                  <td key={i} className={`${td} text-right`}>
                    {number(n)}
                  </td>
                ))}
                <td className={`${td} text-right whitespace-nowrap`}>{copy.perVisit(d.signups, d.visitors)}</td>
                <td className={`${td} text-right whitespace-nowrap`}>{copy.rate(d.confirmed, d.signups)}</td>
              </tr>
            ))}
          </TableRegion>
          <TableRegion
            caption={copy.sourcesCaption}
            className="max-h-80"
            columns={[
              { label: copy.columns.source },
              ...(['views', 'visitors', 'signups', 'confirmed', 'joined', 'confirmedRate'] as const).map((key) => ({
                label: copy.columns[key],
                numeric: true,
              })),
            ]}
          >
            {funnel.sources.map((s) => (
              <tr key={s.partner === null ? `source:${s.source}` : `partner:${s.partner}`} className="border-t border-stone-200">
                <th scope="row" className={`${td} font-medium break-words`}>
                  {s.partner === null ? s.source : copy.partnerSource(s.source)}
                </th>
                {[s.views, s.visitors, s.signups, s.confirmed].map((n, i) => (
                  <td key={i} className={`${td} text-right`}>
                    {number(n)}
                  </td>
                ))}
                <td className={`${td} text-right whitespace-nowrap`}>{copy.perVisit(s.signups, s.visitors)}</td>
                <td className={`${td} text-right whitespace-nowrap`}>{copy.rate(s.confirmed, s.signups)}</td>
              </tr>
            ))}
          </TableRegion>
        </div>
      ) : null}
    </section>
  )
}

/**
 * Into the app (docs/decisions/022-into-the-app.md): people sent their app link, who opened its page,
 * whose profile the app took; a chart as the funnel's, then per country and per breed.
 */
function HandOff({ handOff, breed }: { handOff: FunnelHandOff; breed: string | null }) {
  const text = copy.handOff
  const widest = Math.max(1, handOff.invited, handOff.opened, handOff.claimed)
  const row = (name: string, counts: { invited: number; opened: number; claimed: number }) => (
    <>
      <th scope="row" className={`${td} font-medium break-words`}>
        {name}
      </th>
      {[counts.invited, counts.opened, counts.claimed].map((n, i) => (
        <td key={i} className={`${td} text-right`}>
          {number(n)}
        </td>
      ))}
      <td className={`${td} text-right whitespace-nowrap`}>{copy.rate(counts.claimed, counts.invited)}</td>
    </>
  )
  const columns = (first: string) => [
    { label: first },
    ...(['invited', 'opened', 'claimed', 'rate'] as const).map((key) => ({ label: text.columns[key], numeric: true })),
  ]
  return (
    <section aria-labelledby="hand-off-heading" className="mt-8">
      <h3 id="hand-off-heading" className="font-semibold text-stone-900">
        {text.heading}
        {breed ? ` · ${breed}` : ''}
      </h3>
      <p className="mt-1 max-w-3xl text-sm text-stone-700">{text.intro}</p>
      {handOff.invited + handOff.opened + handOff.claimed === 0 ? (
        <p className="mt-3 text-sm text-stone-700">{text.none}</p>
      ) : (
        <>
          <StepChart
            label={text.chartLabel}
            steps={text.stages.map(([key, label]) => [label, handOff[key]] as const)}
            widest={widest}
            className="mt-4"
            bar="bg-emerald-700"
          />
          <div className="mt-4 grid gap-6 lg:grid-cols-2">
            <TableRegion caption={text.countriesCaption} className="max-h-80" columns={columns(text.columns.country)}>
              {handOff.countries.map((c) => (
                <tr key={c.country} className="border-t border-stone-200">
                  {row(c.country || text.noCountry, c)}
                </tr>
              ))}
            </TableRegion>
            <TableRegion caption={text.breedsCaption} className="max-h-80" columns={columns(text.columns.breed)}>
              {handOff.breeds.map((b) => (
                <tr key={b.breed} className="border-t border-stone-200">
                  {row(b.name, b)}
                </tr>
              ))}
            </TableRegion>
          </div>
        </>
      )}
    </section>
  )
}

/**
 * Steps as a chart that is a list: each step's words and numbers are read, its bar only seen; each
 * step after the first as a share of the one before, unless it says what it is beside it (a note).
 */
function StepChart({
  label,
  steps,
  widest,
  className,
  bar,
}: {
  label: string
  steps: readonly (readonly [name: string, value: number, note?: string])[]
  widest: number
  className: string
  bar: string
}) {
  return (
    <ol aria-label={label} className={`${className} grid gap-2`}>
      {steps.map(([name, value, note], i) => {
        const before = i === 0 ? null : (steps[i - 1]?.[1] ?? null)
        return (
          <li
            key={name}
            className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-sm text-stone-800 sm:grid-cols-[15rem_1fr_14rem] sm:items-center"
          >
            <span>
              <span className="font-semibold">{name}</span> <span className="tabular-nums">{number(value)}</span>
            </span>
            <span aria-hidden="true" className="order-last col-span-2 h-4 overflow-hidden rounded bg-stone-100 sm:order-none sm:col-span-1">
              <span className={`block h-full rounded ${bar}`} style={{ width: `${(value / widest) * 100}%` }} />
            </span>
            <span className="text-right text-stone-600 tabular-nums">
              {note ?? (before === null ? '' : `${copy.rate(value, before)} ${copy.ofBefore}`)}
            </span>
          </li>
        )
      })}
    </ol>
  )
}
