// The breed catalogue (contract/breeds.json, made by scripts/breeds/build-catalogue.mjs from the
// FCI's nomenclature, the Polish club's list and scripts/breeds/extra.json): one id per breed, its
// name in the six languages and the names people type for it. Types, the key that matching uses,
// and the matcher. Imports nothing outside this folder.
import type { Locale } from './locales.js'

export interface Breed {
  /** A stable slug of the English name, e.g. `german-shepherd-dog`. */
  id: string
  /** The FCI's number, for the breeds it recognises. */
  fci: number | null
  /** The FCI group (1 to 10), for those. */
  group: number | null
  names: Record<Locale, string>
  /** The languages whose name is the English one for want of a sure translation. */
  fallback: Locale[]
  /** What else people call it ("Alsatian", "GSD", "Dackel"). */
  aliases: string[]
}

export interface BreedCatalogue {
  version: string
  sources: string[]
  breeds: Breed[]
}

// Letters that do not decompose into a base letter and a mark.
const LETTERS: Record<string, string> = { ß: 'ss', ł: 'l', Ł: 'l', ø: 'o', Ø: 'o', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', đ: 'd' }

/**
 * The key two spellings of a name share: letter case (folded, Greek's final sigma too), punctuation
 * and word order ignored, and in Latin letters accents and German's ae/oe/ue read as a/o/u (the FCI
 * writes both "SCHAEFERHUND" and "SCHAFERHUND"). Letters of every script are kept: "Немецкая
 * овчарка", "Ελληνικός Ποιμενικός" and "柴犬" each have a key of their own (marks that are part of a
 * non-Latin letter are kept, as Cyrillic's й is not и; only Latin's marks and Greek's stress accent go).
 */
export function breedKey(text: string): string {
  const plain = text
    .replace(/[ßłŁøØæÆœŒđ]/g, (letter) => LETTERS[letter] ?? letter)
    .normalize('NFKD')
    // A mark after a Latin letter goes (é is e); one after a letter of another script stays.
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    // Greek's stress accent too: capitals are written without it (ΕΛΛΗΝΙΚΟΣ is Ελληνικός).
    .replace(/(\p{Script=Greek})\u0301/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .replace(/ae/g, 'a')
    .replace(/oe/g, 'o')
    .replace(/ue/g, 'u')
  return plain
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter(Boolean)
    .sort()
    .join(' ')
}

/**
 * Words a name may be typed without: "German Shepherd" for the FCI's "German Shepherd Dog",
 * "Berger belge" for "Chien de berger belge", "Pastor belga" for "Perro de pastor belga".
 */
const GENERIC_WORDS = new Set(['dog', 'hund', 'chien', 'perro', 'pies', 'cane', 'de', 'del', 'du', 'des', 'di', 'the'])

/** The key without its generic words (empty when nothing else is left). */
export const looseKey = (key: string): string =>
  key
    .split(' ')
    .filter((word) => !GENERIC_WORDS.has(word))
    .join(' ')

/** The catalogue's names by key: exact names and aliases first, then their loose forms. */
export interface BreedIndex {
  exact: ReadonlyMap<string, Breed>
  loose: ReadonlyMap<string, Breed>
}

/** A key to breed map in which a key two breeds share is left out: it names neither. */
function unambiguous(entries: Iterable<[string, Breed]>): Map<string, Breed> {
  const found = new Map<string, Breed | null>()
  for (const [key, breed] of entries) {
    if (!key) continue
    const other = found.get(key)
    found.set(key, other === undefined || other?.id === breed.id ? breed : null)
  }
  return new Map([...found].filter((entry): entry is [string, Breed] => entry[1] !== null))
}

export function breedIndex(catalogue: BreedCatalogue): BreedIndex {
  const steps = breedIndexSteps(catalogue)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * The index made a slice of the catalogue at a time (about 40 ms of keys in all): a server can
 * rest between the steps, so that making it never holds its event loop long.
 */
export function* breedIndexSteps(catalogue: BreedCatalogue, slice = 40): Generator<void, BreedIndex> {
  const names = (breed: Breed) => [...Object.values(breed.names), ...breed.aliases]
  const named: [string, Breed][] = []
  // Loosely: without generic words, and without what a name says in brackets ("Owczarek
  // australijski (typ amerykański)", "Hungarian Short-haired Pointer (Vizsla)").
  const bare: [string, Breed][] = []
  for (let i = 0; i < catalogue.breeds.length; i += slice) {
    for (const breed of catalogue.breeds.slice(i, i + slice))
      for (const name of names(breed)) {
        named.push([breedKey(name), breed])
        if (name.includes('(')) bare.push([breedKey(name.replace(/\(.*?\)/g, ' ')), breed])
      }
    yield
  }
  return { exact: unambiguous(named), loose: unambiguous([...named, ...bare].map(([key, breed]) => [looseKey(key), breed])) }
}

/** The breed a typed name means, if the catalogue knows it. */
export function matchBreed(index: BreedIndex, typed: string): Breed | undefined {
  const key = breedKey(typed)
  return index.exact.get(key) ?? index.loose.get(looseKey(key))
}
