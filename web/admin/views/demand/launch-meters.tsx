// Each country's launch meter for the team (docs/decisions/015-growth.md): confirmed breeders and
// owners against its targets, the targets themselves, and the top inviters.
import { type FormEvent, useState } from 'react'
import type { Segments } from '../../../../contract/campaigns'
import { type LaunchTargets, MAX_LAUNCH_TARGET } from '../../../../contract/growth'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import type { AdminApi } from '../../api'
import { adminContent } from '../../content'
import { useAdmin } from '../../session'
import { TableRegion, td } from '../../table'
import { useAction } from '../../hooks'
import { ActionOutcome } from '../../outcome'
import { asTyped, BelowPublicNote, DefaultTargetFields, TargetInput } from '../../target-input'

const launch = adminContent.launch
/** The two numbers of a country's target, in the form's order. */
const KINDS = ['breeders', 'owners'] as const
const number = adminContent.format.number
const countryName = adminContent.format.country

/** A target row of the form: a country (empty for the default) and its two numbers, as typed. */
interface TargetRow {
  key: number
  country: string
  breeders: string
  owners: string
}

const rowsOf = (targets: LaunchTargets): TargetRow[] =>
  Object.entries(targets.countries).map(([country, target], i) => ({
    key: i,
    country,
    breeders: String(target?.breeders ?? 0),
    owners: String(target?.owners ?? 0),
  }))

/**
 * The targets as the form edits them. It is made again when the saved targets change, so its
 * outcome (`act`'s notice or refusal) is kept by the panel: a form made again would forget it.
 */
function TargetsForm({ api, targets, act }: { api: AdminApi; targets: LaunchTargets; act: ReturnType<typeof useAction> }) {
  const [fallback, setFallback] = useState({ breeders: String(targets.default.breeders), owners: String(targets.default.owners) })
  const [rows, setRows] = useState(() => rowsOf(targets))
  const update = (key: number, field: keyof Omit<TargetRow, 'key'>, value: string) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, [field]: value } : row)))

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const body = {
      default: { breeders: asTyped(fallback.breeders), owners: asTyped(fallback.owners) },
      countries: Object.fromEntries(
        rows.map((row) => [row.country.trim().toUpperCase(), { breeders: asTyped(row.breeders), owners: asTyped(row.owners) }]),
      ),
    }
    void act.act(async () => void (await api.setLaunchTargets(body as LaunchTargets)), launch.saved)
  }

  return (
    <form onSubmit={save} aria-labelledby="targets-heading" className="min-w-0 rounded-xl border border-stone-200 p-4">
      <h3 id="targets-heading" className="font-semibold text-stone-900">
        {launch.targets}
      </h3>
      <p className="mt-1 text-sm text-stone-700">{launch.targetsIntro}</p>
      <DefaultTargetFields
        legend={launch.defaultRow}
        names={KINDS}
        idPrefix="target-default-"
        labels={launch}
        values={fallback}
        max={MAX_LAUNCH_TARGET}
        onChange={setFallback}
      />
      {rows.map((row) => (
        <fieldset key={row.key} className="mt-3 flex flex-wrap items-end gap-3 border-t border-stone-200 pt-3">
          <legend className="sr-only">{row.country || launch.country}</legend>
          <div className="w-24">
            <label htmlFor={`target-${row.key}-country`} className="block text-xs text-stone-700">
              {launch.country}
            </label>
            <Input
              id={`target-${row.key}-country`}
              required
              maxLength={2}
              pattern="[A-Za-z]{2}"
              autoCapitalize="characters"
              value={row.country}
              onChange={(event) => update(row.key, 'country', event.target.value)}
              className="mt-1 uppercase"
            />
          </div>
          {KINDS.map((kind) => (
            <TargetInput
              key={kind}
              id={`target-${row.key}-${kind}`}
              label={launch[kind]}
              value={row[kind]}
              max={MAX_LAUNCH_TARGET}
              onChange={(typed) => update(row.key, kind, typed)}
            />
          ))}
          <Button variant="outline" size="sm" onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}>
            {launch.removeCountry(row.country)}
          </Button>
        </fieldset>
      ))}
      <BelowPublicNote
        typed={[...Object.values(fallback), ...rows.flatMap((row) => KINDS.map((kind) => row[kind]))]}
        text={launch.belowPublic}
      />
      <div className="mt-4 flex flex-wrap gap-3">
        <Button
          variant="outline"
          onClick={() =>
            setRows((current) => [
              ...current,
              { key: Math.max(-1, ...current.map((r) => r.key)) + 1, country: '', breeders: fallback.breeders, owners: fallback.owners },
            ])
          }
        >
          {launch.addCountry}
        </Button>
        <Button type="submit">{launch.save}</Button>
      </div>
      <ActionOutcome notice={act.notice} problem={act.problem} />
    </form>
  )
}

/** The meters of `segments`; saving new targets asks for them again (`onSaved`). */
export function LaunchPanel({ segments, onSaved }: { segments: Segments | null; onSaved: () => void }) {
  const { api, can } = useAdmin()
  // A refusal (400) names what is wrong; the meters are loaded again after a save.
  const targetsSaved = useAction(onSaved, [400])
  const bar = (have: number, want: number) => (
    <span aria-hidden="true" className="mt-1 block h-1.5 w-24 overflow-hidden rounded bg-stone-200">
      <span className="block h-full bg-brand-700" style={{ width: `${want === 0 ? 100 : Math.min(100, (have / want) * 100)}%` }} />
    </span>
  )
  return (
    <section aria-labelledby="launch-heading" className="mt-6 rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="launch-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {launch.heading}
      </h2>
      <p className="mt-2 text-sm text-stone-700">{launch.intro}</p>
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <TableRegion
          caption={launch.caption}
          className="max-h-96 self-start"
          columns={[{ label: launch.columns.country }, { label: launch.columns.breeders }, { label: launch.columns.owners }]}
          empty={segments && segments.meters.length === 0 ? launch.none : null}
        >
          {segments?.meters.map((m) => (
            <tr key={m.country} className="border-t border-stone-200">
              <th scope="row" className={`${td} font-medium`}>
                {countryName(m.country)} <span className="text-stone-600">({m.country})</span>
                {m.ready ? (
                  <span className="ml-2 inline-block rounded-full bg-emerald-100 px-2 text-xs font-semibold text-emerald-900">
                    {launch.ready}
                  </span>
                ) : null}
              </th>
              <td className={td}>
                {launch.of(m.breeders, m.target.breeders)}
                {bar(m.breeders, m.target.breeders)}
              </td>
              <td className={td}>
                {launch.of(m.owners, m.target.owners)}
                {bar(m.owners, m.target.owners)}
              </td>
            </tr>
          ))}
        </TableRegion>
        {segments && can('settings:write') ? (
          <TargetsForm key={JSON.stringify(segments.targets)} api={api} targets={segments.targets} act={targetsSaved} />
        ) : null}
      </div>
      <TableRegion
        caption={launch.inviters}
        framed={false}
        className="mt-6"
        columns={[
          { label: launch.inviterColumns.email },
          { label: launch.inviterColumns.joined, numeric: true },
          { label: launch.inviterColumns.confirmed, numeric: true },
        ]}
        empty={segments && segments.topInviters.length === 0 ? launch.noInviters : null}
      >
        {segments?.topInviters.map((i) => (
          <tr key={i.id} className="border-t border-stone-200">
            <th scope="row" className={`${td} font-medium break-all`}>
              {i.email || launch.inviterById(i.id)}
            </th>
            <td className={`${td} text-right`}>{number(i.joined)}</td>
            <td className={`${td} text-right font-semibold`}>{number(i.confirmed)}</td>
          </tr>
        ))}
      </TableRegion>
    </section>
  )
}
