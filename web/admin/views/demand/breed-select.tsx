// The breed filter of the demand map, lent to the overview's funnel too: "All breeds" (the empty
// value), then the breeds with counted profiles by name. Their ids are what the API takes.
import type { ComponentProps } from 'react'
import { cn } from '../../../lib/cn'
import type { AdminApi } from '../../api'
import { adminContent } from '../../content'
import { useLoaded } from '../../hooks'

const copy = adminContent.breeds

export interface BreedChoice {
  id: string
  name: string
}

const loadChoices = async (api: AdminApi): Promise<BreedChoice[]> =>
  (await api.breeds({ breed: '', country: '', side: '' })).breeds
    .map(({ id, name }) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name, adminContent.locale))

/**
 * The breeds a filter offers: those with confirmed, subscribed profiles (GET /admin/api/breeds), so
 * a breed named only by the unconfirmed is not offered. None while they load.
 */
export function useBreedChoices(): readonly BreedChoice[] {
  return useLoaded(loadChoices).data ?? []
}

/** A breed's name as the select shows it (its id until the names are in). */
export const breedName = (choices: readonly BreedChoice[], id: string): string => choices.find((choice) => choice.id === id)?.name ?? id

// Two looks, not an override: the page's cn() merges no conflicting classes.
const LOOKS = {
  /** Beside other selects, as the breeds view has them. */
  compact: 'h-9 rounded-md px-2 text-sm',
  /** Beside the admin's text and date fields. */
  field: 'h-12 rounded-xl px-3 text-base shadow-sm',
}

/** The labelled select; `id` names it, the rest goes to the select (controlled or not). */
export function BreedSelect({
  id,
  choices,
  look = 'compact',
  ...select
}: Omit<ComponentProps<'select'>, 'className'> & { id: string; choices: readonly BreedChoice[]; look?: keyof typeof LOOKS }) {
  return (
    <div className="w-full sm:w-auto">
      <label htmlFor={id} className="block text-sm text-stone-700">
        {copy.breed}
      </label>
      <select
        id={id}
        className={cn(
          'mt-1 w-full border border-stone-300 bg-white text-stone-900 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none sm:w-auto',
          LOOKS[look],
        )}
        {...select}
      >
        <option value="">{copy.anyBreed}</option>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.name}
          </option>
        ))}
      </select>
    </div>
  )
}
