// A target as the team types it, for the breeds' and the countries' target forms: a labelled whole
// number from 0 to the target's maximum, sent as typed (the server names whatever is wrong).
import { PUBLIC_MIN } from '../../contract/public-figures'
import { Input } from '../components/ui/input'

/** A field's text as the request sends it: a number where it reads as one, else the text itself. */
export const asTyped = (text: string): number | string => (text.trim() !== '' && !Number.isNaN(Number(text)) ? Number(text) : text)

export function TargetInput({
  id,
  label,
  value,
  max,
  onChange,
}: {
  id: string
  label: string
  value: string
  max: number
  onChange: (value: string) => void
}) {
  return (
    <div className="w-28">
      <label htmlFor={id} className="block text-xs text-stone-700">
        {label}
      </label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={0}
        max={max}
        step={1}
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="mt-1"
      />
    </div>
  )
}

/**
 * Said while any target typed is under PUBLIC_MIN: visitors see no count under it, so their pages
 * call such a target reached only once PUBLIC_MIN (and the figure's secret offset) wait; the team's
 * figures, exact, call it reached at the target (docs/public-figures.md#targets-under-the-threshold).
 */
export function BelowPublicNote({ typed, text }: { typed: readonly string[]; text: (min: number) => string }) {
  const below = typed.some((value) => {
    const n = asTyped(value)
    return typeof n === 'number' && n < PUBLIC_MIN
  })
  return (
    <p role="status" className="mt-3 text-sm text-amber-800 empty:hidden">
      {below ? text(PUBLIC_MIN) : null}
    </p>
  )
}

/** Every number of a form's default target as typed, in one fieldset under its legend. */
export function DefaultTargetFields<N extends string>({
  legend,
  names,
  idPrefix,
  labels,
  values,
  max,
  onChange,
}: {
  legend: string
  /** The target's numbers, in the form's order. */
  names: readonly N[]
  /** Each field's id is the prefix and the number's name. */
  idPrefix: string
  labels: Record<N, string>
  values: Record<N, string>
  max: number
  onChange: (values: Record<N, string>) => void
}) {
  return (
    <fieldset className="mt-3 flex flex-wrap items-end gap-3">
      <legend className="mb-1 text-sm font-medium text-stone-800">{legend}</legend>
      {names.map((name) => (
        <TargetInput
          key={name}
          id={`${idPrefix}${name}`}
          label={labels[name]}
          value={values[name]}
          max={max}
          onChange={(typed) => onChange({ ...values, [name]: typed })}
        />
      ))}
    </fieldset>
  )
}
