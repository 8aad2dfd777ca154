// The breed catalogue as the server uses it: what a typed name means, and a breed's name in a
// language. The data is contract/breeds.json (docs/breeds.md), built into dist/ with the server.
import {
  type Breed,
  type BreedCatalogue,
  type BreedIndex,
  breedIndex,
  breedIndexSteps,
  breedKey,
  matchBreed,
} from '../../contract/breeds.js'
import data from '../../contract/breeds.json' with { type: 'json' }
import type { Locale } from '../../contract/locales.js'

const catalogue = data as BreedCatalogue
// The names' index is made at the first name read (~35 ms): a command or a start that reads none
// does not pay for it.
let index: BreedIndex | undefined
const byId = new Map<string, Breed>(catalogue.breeds.map((breed) => [breed.id, breed]))

/** A typed name read: the key it is grouped and mapped by, and the catalogue's breed if it knows it. */
export function readBreedName(typed: string): { key: string; breed: string | null } {
  return { key: breedKey(typed), breed: matchBreed((index ??= breedIndex(catalogue)), typed)?.id ?? null }
}

/**
 * The names' index made now, a slice at a time with `rest` between (an import's worker, before its
 * first record: made at once, it held the event loop ~40 ms, with the countries' ~37 more).
 */
export async function warmBreedNames(rest: () => Promise<void>): Promise<void> {
  if (index) return
  const steps = breedIndexSteps(catalogue)
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) {
      index ??= step.value
      return
    }
    await rest()
  }
}

export const isBreedId = (id: string): boolean => byId.has(id)

/** A breed's name in a language (English for an id the catalogue no longer has: the id itself). */
export const breedName = (id: string, locale: Locale = 'en'): string => byId.get(id)?.names[locale] ?? id

export const catalogueVersion = catalogue.version
