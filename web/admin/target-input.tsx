// A target as the team types it, for the breeds' and the countries' target forms: a labelled whole
// number from 0 to the target's maximum, sent as typed (the server names whatever is wrong).
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
