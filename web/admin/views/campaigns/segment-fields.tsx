// The composer's "Who gets it": one control per field of the segment's definition
// (contract/segment.ts), filled from the draft opened, and read back from the form as the same
// segment. A field added to the definition shows up here by its kind, with no change to this file.
import type { ReactNode } from 'react'
import type { Segment } from '../../../../contract/campaigns'
import {
  MOMENT_PATTERN,
  SEGMENT,
  SEGMENT_FIELDS,
  type SegmentField,
  type SegmentFieldName,
  type SegmentKind,
  tidySegment,
  TRISTATE_ANSWERS,
  type TristateAnswer,
} from '../../../../contract/segment'
import { Input } from '../../../components/ui/input'
import { adminContent } from '../../content'

const text = adminContent.campaigns

/** Where a kind's controls go: the groups (tick boxes, yes-no-either) first, then the boxes to type in, then the switches. */
const PLACE = { choice: 0, tristate: 0, codes: 1, texts: 1, moment: 1, number: 1, switch: 2 } as const satisfies Record<SegmentKind, number>

const fieldsAt = (place: number) => SEGMENT_FIELDS.filter((name) => PLACE[SEGMENT[name].kind] === place)

const idOf = (name: SegmentFieldName) => `campaign-${name}`
const hintId = (name: SegmentFieldName) => `campaign-${name}-hint`

/** A list as its value in the form: codes on one line, free texts (which may hold commas) one per line. */
const listed = (value: unknown, separator: string) => (Array.isArray(value) ? value.join(separator) : '')

/** The segment the form holds: each field read as its kind draws it; empty controls narrow nothing. */
export function segmentOf(form: FormData): Segment {
  const segment: Record<string, unknown> = {}
  for (const name of SEGMENT_FIELDS) {
    const field: SegmentField = SEGMENT[name]
    const typed = String(form.get(name) ?? '').trim()
    switch (field.kind) {
      case 'choice':
        segment[name] = form.getAll(name).map(String)
        break
      case 'codes':
        segment[name] = typed
          .split(/[\s,]+/)
          .filter(Boolean)
          .map((code) => code.toUpperCase())
        break
      case 'texts':
        segment[name] = typed
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean)
        break
      case 'moment':
        if (typed !== '') segment[name] = typed
        break
      case 'number':
        if (typed !== '') segment[name] = Number(typed)
        break
      case 'switch':
        segment[name] = form.get(name) !== null
        break
      case 'tristate':
        // Either narrows nothing: the field is left out.
        if (typed === 'yes' || typed === 'no') segment[name] = typed === 'yes'
        break
    }
  }
  return tidySegment(segment as Segment)
}

/** A tristate field's value as the composer's answer: absent is either. */
const answerOf = (value: unknown): TristateAnswer => (value === true ? 'yes' : value === false ? 'no' : 'either')

/** The fields of a segment the form does not hold as it is (one saved before the form could show it). */
export function unshownFields(segment: Segment, form: FormData): SegmentFieldName[] {
  const written = tidySegment(segment)
  const shown = segmentOf(form)
  return SEGMENT_FIELDS.filter((name) => JSON.stringify(written[name]) !== JSON.stringify(shown[name]))
}

function Hint({ name }: { name: SegmentFieldName }) {
  return (
    <p id={hintId(name)} className="text-sm text-stone-600">
      {text.hint(name)}
    </p>
  )
}

/** A field with choices: a group of tick boxes. */
function Choices({ name, segment }: { name: SegmentFieldName; segment: Segment | undefined }) {
  const field: SegmentField = SEGMENT[name]
  if (field.kind !== 'choice') return null
  const ticked: unknown = segment?.[name]
  return (
    <fieldset aria-describedby={hintId(name)}>
      <legend className="text-sm font-semibold text-stone-700">{text[name]}</legend>
      <Hint name={name} />
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
        {field.of.map((value) => (
          <label key={value} className="flex items-center gap-2 text-stone-900">
            <input
              type="checkbox"
              name={name}
              value={value}
              defaultChecked={Array.isArray(ticked) && ticked.includes(value)}
              className="size-4 accent-brand-700"
            />
            {text.option(name, value)}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

/** Yes, no or either: a group of three radio buttons, either (narrowing nothing) the default. */
function Tristate({ name, segment }: { name: SegmentFieldName; segment: Segment | undefined }) {
  const field: SegmentField = SEGMENT[name]
  if (field.kind !== 'tristate') return null
  const chosen = answerOf(segment?.[name])
  return (
    <fieldset aria-describedby={hintId(name)}>
      <legend className="text-sm font-semibold text-stone-700">{text[name]}</legend>
      <Hint name={name} />
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
        {TRISTATE_ANSWERS.map((answer) => (
          <label key={answer} className="flex items-center gap-2 text-stone-900">
            <input
              type="radio"
              name={name}
              value={answer === 'either' ? '' : answer}
              defaultChecked={answer === chosen}
              className="size-4 accent-brand-700"
            />
            {text.tristate(name, answer)}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

/** A field typed into: codes, free texts (a box of lines), a moment or a number. */
function Typed({ name, segment }: { name: SegmentFieldName; segment: Segment | undefined }) {
  const field: SegmentField = SEGMENT[name]
  const value: unknown = segment?.[name]
  const common = { id: idOf(name), name, 'aria-describedby': hintId(name), className: 'mt-1' }
  let control
  switch (field.kind) {
    case 'codes':
      control = <Input {...common} defaultValue={listed(value, ', ')} autoCapitalize="characters" spellCheck={false} />
      break
    case 'texts':
      // Not wrapped: a line on screen is one value, a long one scrolls.
      control = <textarea {...common} rows={3} wrap="off" defaultValue={listed(value, '\n')} className={`mt-1 ${textBox}`} />
      break
    case 'moment':
      control = (
        <Input
          {...common}
          defaultValue={typeof value === 'string' ? value : ''}
          pattern={MOMENT_PATTERN}
          placeholder="2026-11-01"
          spellCheck={false}
        />
      )
      break
    case 'number':
      control = (
        <Input
          {...common}
          type="number"
          min={field.min}
          max={field.max}
          step={1}
          inputMode="numeric"
          defaultValue={typeof value === 'number' ? value : ''}
          className="mt-1 w-40"
        />
      )
      break
    default:
      return null
  }
  return (
    <div>
      <label htmlFor={idOf(name)} className="block text-sm font-semibold text-stone-700">
        {text[name]}
      </label>
      {control}
      <Hint name={name} />
    </div>
  )
}

/** A switch: one tick box, its words beside it (and what the composer says of it, if anything). */
function Switch({ name, segment, note }: { name: SegmentFieldName; segment: Segment | undefined; note?: ReactNode }) {
  return (
    <div>
      <label className="flex items-center gap-2 text-stone-900">
        <input
          type="checkbox"
          name={name}
          aria-describedby={hintId(name)}
          defaultChecked={segment?.[name] === true}
          className="size-4 accent-brand-700"
        />
        {text[name]}
      </label>
      <div className="pl-6">
        <Hint name={name} />
        {note}
      </div>
    </div>
  )
}

/** A box for lines of text, as the composer's other boxes look. */
const textBox =
  'w-full rounded-xl border border-stone-300 bg-white px-4 py-3 text-base text-stone-900 shadow-sm focus-visible:border-brand-600 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none'

/** Every field of the segment, filled from `segment` (the draft opened) or empty; `notes`: what the composer says under a switch. */
export function SegmentFields({
  segment,
  notes = {},
}: {
  segment: Segment | undefined
  notes?: Partial<Record<SegmentFieldName, ReactNode>>
}) {
  return (
    <fieldset className="grid gap-5 rounded-xl border border-stone-200 p-4">
      <legend className="px-1 text-sm font-semibold text-stone-700">{text.segment}</legend>
      {fieldsAt(0).map((name) =>
        SEGMENT[name].kind === 'tristate' ? (
          <Tristate key={name} name={name} segment={segment} />
        ) : (
          <Choices key={name} name={name} segment={segment} />
        ),
      )}
      <div className="grid items-start gap-4 sm:grid-cols-2">
        {fieldsAt(1).map((name) => (
          <Typed key={name} name={name} segment={segment} />
        ))}
      </div>
      <div className="grid gap-3">
        {fieldsAt(2).map((name) => (
          <Switch key={name} name={name} segment={segment} note={notes[name]} />
        ))}
      </div>
    </fieldset>
  )
}
