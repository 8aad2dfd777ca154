// A field for a breed of the catalogue, by its name in any of the six languages or its id: as the
// person types, the catalogue's names that hold what they typed are offered below it (a combobox
// with a list, as WAI-ARIA's pattern has it: arrows move through the names, Enter or a click picks
// one, Escape closes the list). What is typed is sent as it is; the server reads it, so a name
// typed whole without picking counts the same.
import { type KeyboardEvent, useEffect, useId, useMemo, useState } from 'react'
import type { BreedCatalogue } from '../../../../contract/breeds'
import { Input } from '../../../components/ui/input'
import { cn } from '../../../lib/cn'
import { adminContent } from '../../content'

const copy = adminContent.breeds

/** One name a breed has in one language (or more: a name shared by languages is offered once). */
export interface BreedName {
  id: string
  name: string
  /** The breed's name in the operator's language, said beside a name in another. */
  known: string
}

/** The most names offered at once: more would bury the field's button on a phone. */
const OFFERED = 8

/** Text as names are compared: letter case and Latin accents ignored (Schaferhund finds Schäferhund). */
const folded = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .toLowerCase()

/** The names that hold every word typed, those that start with it first, at most OFFERED. */
function offered(names: readonly (BreedName & { folded: string })[], typed: string): BreedName[] {
  const words = folded(typed).split(/\s+/).filter(Boolean)
  if (words.length === 0) return []
  const start = folded(typed.trim())
  const found = names.filter((entry) => words.every((word) => entry.folded.includes(word)))
  return [...found.filter((entry) => entry.folded.startsWith(start)), ...found.filter((entry) => !entry.folded.startsWith(start))].slice(
    0,
    OFFERED,
  )
}

export function BreedField({
  names,
  label,
  name = 'breed',
  required = true,
  initial = '',
}: {
  names: readonly BreedName[]
  label: string
  name?: string
  /** An optional breed (a partner's) may be left empty. */
  required?: boolean
  /** What the field holds at first (a partner's breed, by its name in the operator's language). */
  initial?: string
}) {
  const listId = useId()
  const [value, setValue] = useState(initial)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const searchable = useMemo(() => names.map((entry) => ({ ...entry, folded: folded(entry.name) })), [names])
  const shown = useMemo(() => (open ? offered(searchable, value) : []), [open, searchable, value])
  const expanded = shown.length > 0
  const optionId = (i: number) => `${listId}-${i}`

  function pick(entry: BreedName) {
    setValue(entry.name)
    setOpen(false)
    setActive(-1)
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!open) setOpen(true)
      const last = shown.length - 1
      setActive((i) => (event.key === 'ArrowDown' ? (i >= last ? 0 : i + 1) : i <= 0 ? last : i - 1))
    } else if (event.key === 'Enter' && expanded && active >= 0) {
      // Enter on an offered name picks it; otherwise it sends the form, as a field's Enter does.
      event.preventDefault()
      const entry = shown[active]
      if (entry) pick(entry)
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault()
      setOpen(false)
      setActive(-1)
    }
  }

  return (
    <div className="min-w-0 flex-1 basis-48">
      <Input
        name={name}
        role="combobox"
        aria-label={label}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        value={value}
        onChange={(event) => {
          setValue(event.target.value)
          setOpen(true)
          setActive(-1)
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        required={required}
        autoComplete="off"
        spellCheck={false}
        placeholder={copy.breedPlaceholder}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={copy.breedsOffered}
        hidden={!expanded}
        className="mt-1 max-h-72 overflow-y-auto rounded-xl border border-stone-300 bg-white py-1 shadow-sm"
      >
        {shown.map((entry, i) => (
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- an option never has focus: its keys are the field's (aria-activedescendant)
          <li
            key={`${entry.id}:${entry.name}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // Pressed, the field keeps its focus (it would close the list before the click landed).
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(entry)}
            className={cn('cursor-pointer px-4 py-2 text-sm text-stone-900 hover:bg-brand-50', i === active && 'bg-brand-100')}
          >
            {copy.breedOffered(entry.name, entry.known)}
          </li>
        ))}
      </ul>
    </div>
  )
}

/**
 * Every breed's names in the six languages (each once), for the field to offer. Loaded when the
 * section opens, as a chunk of its own: the other views need none of its 130 KB. Without it (a failed
 * load) a name or an id can still be typed, and the server says if it is not one.
 */
export function useBreedNames(): BreedName[] {
  const [names, setNames] = useState<BreedName[]>([])
  useEffect(() => {
    let current = true
    import('../../../../contract/breeds.json').then(
      (loaded) => {
        if (!current) return
        const catalogue = loaded.default as BreedCatalogue
        setNames(
          catalogue.breeds
            .flatMap((breed) =>
              [...new Set(Object.values(breed.names))].map((name) => ({ id: breed.id, name, known: breed.names[adminContent.locale] })),
            )
            .sort((a, b) => a.name.localeCompare(b.name, adminContent.locale)),
        )
      },
      () => undefined,
    )
    return () => {
      current = false
    }
  }, [])
  return names
}
