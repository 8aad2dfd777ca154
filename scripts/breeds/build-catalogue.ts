// Makes contract/breeds.json, the breed catalogue, from the FCI's nomenclature in English,
// German, French and Spanish and the Polish club's list (scripts/breeds/fci/, MIT, see its
// SOURCE.md and LICENSE), and scripts/breeds/extra.json (Italian names where sure, aliases, names
// whose accents the FCI's upper-case lists lost, the widely kept breeds the FCI does not recognise). `node scripts/breeds/build-catalogue.ts` (Node strips its types);
// the file it writes is committed, and a test checks it is this script's output.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = fileURLToPath(new URL('../..', import.meta.url))
/** The catalogue's version: bump it when the data changes meaning (an id renamed or merged). */
const VERSION = '2026-11-25.1'
const LANGUAGES = ['en', 'de', 'fr', 'es', 'pl']

/** The rows of a CSV whose fields may be quoted. */
function csv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += c
  }
  if (field || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows.filter((r) => r.length > 1)
}

const SMALL: Record<string, string[]> = {
  en: ['and', 'of', 'the', 'de', 'du', 'des', 'la', 'le'],
  de: ['von', 'der', 'des', 'mit', 'vom', 'aus', 'und', 'de', 'du'],
}

/** The FCI's upper-case names, as each language writes them: English and German words capitalised, French and Spanish sentence case. */
function cased(name: string, language: string): string {
  const clean = name.replace(/\s+/g, ' ').trim()
  if (clean !== clean.toUpperCase()) return clean // the Polish list is written as it should be
  const lower = clean.toLocaleLowerCase(language)
  const capital = (word: string) => word.charAt(0).toLocaleUpperCase(language) + word.slice(1)
  if (language === 'en' || language === 'de') {
    return lower
      .split(' ')
      .map((word, i) => (i > 0 && (SMALL[language] ?? []).includes(word) ? word : word.split('-').map(capital).join('-')))
      .join(' ')
      .replace(/\((\p{Ll})/gu, (_: string, letter: string) => `(${letter.toLocaleUpperCase(language)}`)
  }
  return capital(lower).replace(/\((\p{Ll})/gu, (_: string, letter: string) => `(${letter.toLocaleUpperCase(language)}`)
}

const slug = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/** Each FCI breed's names by language, and its group's English name. */
const fci = new Map<number, Record<string, string>>()
for (const language of LANGUAGES) {
  const file = language === 'en' ? 'fci-breeds.csv' : `fci-breeds-${language}.csv`
  const [header = [], ...rows] = csv(readFileSync(`${here}fci/${file}`, 'utf8'))
  const at = (name: string) => header.indexOf(name)
  for (const row of rows) {
    const id = Number(row[at('id')])
    const entry = fci.get(id) ?? {}
    entry[language] = cased(row[at('name')] ?? '', language)
    if (language === 'en') entry.groupName = row[at('group')] ?? ''
    fci.set(id, entry)
  }
}
// The FCI's ten groups, in its order, by their English names.
const groups = [...new Set([...fci.entries()].sort(([a], [b]) => a - b).map(([, e]) => e.groupName))]

const extra = JSON.parse(readFileSync(`${here}extra.json`, 'utf8'))
const breeds = []
const ids = new Set()
for (const [number, names] of [...fci.entries()].sort(([a], [b]) => a - b)) {
  if (!names.en) continue
  let id = slug(names.en.replace(/\(.*?\)/g, ''))
  if (ids.has(id)) id = `${id}-${number}`
  ids.add(id)
  const italian = extra.italian?.[String(number)]
  const fallback = []
  // A name as it is written where the FCI's upper-case list lost its accents ("SCHAEFERHUND").
  const written = extra.display?.[String(number)] ?? {}
  const complete = { en: names.en, de: names.de, fr: names.fr, es: names.es, it: italian, pl: names.pl, ...written }
  for (const language of ['de', 'fr', 'es', 'it', 'pl']) {
    if (!complete[language]) {
      complete[language] = names.en
      fallback.push(language)
    }
  }
  breeds.push({
    id,
    fci: number,
    group: groups.indexOf(names.groupName) + 1 || null,
    names: complete,
    fallback,
    aliases: extra.aliases?.[String(number)] ?? [],
  })
}
for (const breed of extra.nonFci ?? []) {
  if (ids.has(breed.id)) throw new Error(`extra.json: ${breed.id} is an FCI breed's id`)
  ids.add(breed.id)
  breeds.push({
    id: breed.id,
    fci: null,
    group: null,
    names: breed.names,
    fallback: [],
    aliases: [...(breed.aliases ?? []), ...(extra.aliases?.[breed.id] ?? [])],
  })
}

const catalogue = {
  version: VERSION,
  sources: [
    "FCI breed nomenclature (English, French, German, Spanish) and ZKwP's list of standards (Polish), collected by github.com/paiv/fci-breeds, MIT licence, as of 2025-06-20: scripts/breeds/fci/",
    'Italian names (ENCI usage), aliases and the breeds the FCI does not recognise: scripts/breeds/extra.json',
  ],
  breeds,
}
// Another path as the first argument: the test compares that output with the committed file.
const out = process.argv[2] ?? `${root}contract/breeds.json`
writeFileSync(out, `${JSON.stringify(catalogue, null, 1)}\n`)
console.log(`${out}: ${breeds.length} breeds (${breeds.filter((b) => b.fci !== null).length} FCI), version ${VERSION}`)
