// The breed catalogue (contract/breeds.json): six names for every breed, one breed per alias, the
// file as its builder makes it, and the most registered breeds of the six countries found by the
// names their people type, in every language.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type BreedCatalogue, breedIndex, breedKey, matchBreed } from '../../contract/breeds'
import { LOCALES } from '../../contract/locales'

const catalogue = JSON.parse(readFileSync('contract/breeds.json', 'utf8')) as BreedCatalogue
const index = breedIndex(catalogue)

/**
 * The breeds most registered in Britain (KC), Germany (VDH), France (SCC), Spain (RSCE), Italy
 * (ENCI) and Poland (ZKwP), each as people of each language type it: the club's name, or the one
 * in everyday use ("Dackel", "Frenchie" is an alias test below).
 */
const TOP: Record<string, Record<(typeof LOCALES)[number], string>> = {
  'labrador-retriever': {
    en: 'Labrador Retriever',
    de: 'Labrador Retriever',
    fr: 'Labrador',
    es: 'Labrador',
    it: 'Labrador',
    pl: 'Labrador retriever',
  },
  'french-bulldog': {
    en: 'French Bulldog',
    de: 'Französische Bulldogge',
    fr: 'Bouledogue français',
    es: 'Bulldog francés',
    it: 'Bulldog francese',
    pl: 'Buldog francuski',
  },
  'golden-retriever': {
    en: 'Golden Retriever',
    de: 'Golden Retriever',
    fr: 'Golden retriever',
    es: 'Golden Retriever',
    it: 'Golden Retriever',
    pl: 'Golden retriever',
  },
  'german-shepherd-dog': {
    en: 'German Shepherd',
    de: 'Deutscher Schäferhund',
    fr: 'Berger Allemand',
    es: 'Pastor Alemán',
    it: 'Pastore Tedesco',
    pl: 'Owczarek niemiecki',
  },
  dachshund: { en: 'Dachshund', de: 'Dackel', fr: 'Teckel', es: 'Teckel', it: 'Bassotto', pl: 'Jamnik' },
  'english-cocker-spaniel': {
    en: 'Cocker Spaniel',
    de: 'English Cocker Spaniel',
    fr: 'Cocker anglais',
    es: 'Cocker spaniel inglés',
    it: 'Cocker Spaniel Inglese',
    pl: 'Cocker spaniel angielski',
  },
  bulldog: {
    en: 'Bulldog',
    de: 'Englische Bulldogge',
    fr: 'Bouledogue anglais',
    es: 'Bulldog inglés',
    it: 'Bulldog inglese',
    pl: 'Buldog angielski',
  },
  poodle: { en: 'Poodle', de: 'Pudel', fr: 'Caniche', es: 'Caniche', it: 'Barboncino', pl: 'Pudel' },
  beagle: { en: 'Beagle', de: 'Beagle', fr: 'Beagle', es: 'Beagle', it: 'Beagle', pl: 'Beagle' },
  rottweiler: { en: 'Rottweiler', de: 'Rottweiler', fr: 'Rottweiler', es: 'Rottweiler', it: 'Rottweiler', pl: 'Rottweiler' },
  'yorkshire-terrier': {
    en: 'Yorkshire Terrier',
    de: 'Yorkshire Terrier',
    fr: 'Yorkshire',
    es: 'Yorkshire terrier',
    it: 'Yorkshire',
    pl: 'Yorkshire terrier',
  },
  chihuahua: { en: 'Chihuahua', de: 'Chihuahua', fr: 'Chihuahua', es: 'Chihuahueño', it: 'Chihuahua', pl: 'Chihuahua' },
  'border-collie': {
    en: 'Border Collie',
    de: 'Border Collie',
    fr: 'Border collie',
    es: 'Border Collie',
    it: 'Border Collie',
    pl: 'Border collie',
  },
  'australian-shepherd': {
    en: 'Australian Shepherd',
    de: 'Australian Shepherd',
    fr: 'Berger australien',
    es: 'Pastor australiano',
    it: 'Pastore australiano',
    pl: 'Owczarek australijski',
  },
  'jack-russell-terrier': {
    en: 'Jack Russell',
    de: 'Jack Russell Terrier',
    fr: 'Jack Russell',
    es: 'Jack Russell terrier',
    it: 'Jack Russell',
    pl: 'Jack Russell terrier',
  },
  'cavalier-king-charles-spaniel': {
    en: 'Cavalier King Charles Spaniel',
    de: 'Cavalier King Charles Spaniel',
    fr: 'Cavalier King Charles',
    es: 'Cavalier King Charles',
    it: 'Cavalier King Charles Spaniel',
    pl: 'Cavalier king charles spaniel',
  },
  'shih-tzu': { en: 'Shih Tzu', de: 'Shih-Tzu', fr: 'Shih tzu', es: 'Shih Tzu', it: 'Shih Tzu', pl: 'Shih tzu' },
  'german-spitz': {
    en: 'Pomeranian',
    de: 'Zwergspitz',
    fr: 'Spitz allemand',
    es: 'Spitz alemán',
    it: 'Volpino di Pomerania',
    pl: 'Szpic niemiecki',
  },
  boxer: { en: 'Boxer', de: 'Deutscher Boxer', fr: 'Boxer', es: 'Bóxer', it: 'Boxer', pl: 'Bokser' },
  'siberian-husky': {
    en: 'Siberian Husky',
    de: 'Husky',
    fr: 'Husky sibérien',
    es: 'Husky siberiano',
    it: 'Siberian Husky',
    pl: 'Husky syberyjski',
  },
  'bernese-mountain-dog': {
    en: 'Bernese Mountain Dog',
    de: 'Berner Sennenhund',
    fr: 'Bouvier bernois',
    es: 'Boyero de Berna',
    it: 'Bovaro del Bernese',
    pl: 'Berneński pies pasterski',
  },
  'staffordshire-bull-terrier': {
    en: 'Staffy',
    de: 'Staffordshire Bull Terrier',
    fr: 'Staffordshire bull terrier',
    es: 'Staffordshire bull terrier',
    it: 'Staffordshire Bull Terrier',
    pl: 'Staffordshire bull terrier',
  },
  'miniature-schnauzer': {
    en: 'Miniature Schnauzer',
    de: 'Zwergschnauzer',
    fr: 'Schnauzer nain',
    es: 'Schnauzer miniatura',
    it: 'Schnauzer nano',
    pl: 'Sznaucer miniaturowy',
  },
  maltese: { en: 'Maltese', de: 'Malteser', fr: 'Bichon maltais', es: 'Maltés', it: 'Maltese', pl: 'Maltańczyk' },
  'belgian-shepherd-dog': {
    en: 'Belgian Malinois',
    de: 'Malinois',
    fr: 'Berger belge',
    es: 'Pastor belga',
    it: 'Pastore belga',
    pl: 'Owczarek belgijski',
  },
  dobermann: { en: 'Doberman', de: 'Dobermann', fr: 'Dobermann', es: 'Dóberman', it: 'Dobermann', pl: 'Doberman' },
  'italian-cane-corso': {
    en: 'Cane Corso',
    de: 'Cane Corso',
    fr: 'Cane corso',
    es: 'Cane Corso',
    it: 'Cane Corso Italiano',
    pl: 'Cane corso',
  },
  'english-springer-spaniel': {
    en: 'Springer Spaniel',
    de: 'English Springer Spaniel',
    fr: 'Springer anglais',
    es: 'Springer spaniel inglés',
    it: 'Springer Spaniel Inglese',
    pl: 'Springer spaniel angielski',
  },
  'west-highland-white-terrier': {
    en: 'Westie',
    de: 'West Highland White Terrier',
    fr: 'Westie',
    es: 'West Highland White Terrier',
    it: 'West Highland White Terrier',
    pl: 'West highland white terrier',
  },
  pug: { en: 'Pug', de: 'Mops', fr: 'Carlin', es: 'Carlino', it: 'Carlino', pl: 'Mops' },
  'shetland-sheepdog': {
    en: 'Sheltie',
    de: 'Sheltie',
    fr: 'Berger des Shetland',
    es: 'Pastor de Shetland',
    it: 'Shetland Sheepdog',
    pl: 'Owczarek szetlandzki',
  },
  'great-dane': { en: 'Great Dane', de: 'Deutsche Dogge', fr: 'Dogue allemand', es: 'Gran danés', it: 'Alano', pl: 'Dog niemiecki' },
  'bichon-frise': {
    en: 'Bichon Frise',
    de: 'Bichon Frisé',
    fr: 'Bichon frisé',
    es: 'Bichón frisé',
    it: 'Bichon Frisé',
    pl: 'Bichon frise',
  },
}

describe('the breed catalogue', () => {
  it('gives every breed a slug id, its six names, and English where a translation is not sure (marked)', () => {
    expect(catalogue.breeds.length).toBeGreaterThan(360)
    expect(new Set(catalogue.breeds.map((b) => b.id)).size).toBe(catalogue.breeds.length)
    for (const breed of catalogue.breeds) {
      expect(breed.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      for (const locale of LOCALES) expect(breed.names[locale]?.trim(), `${breed.id} ${locale}`).toBeTruthy()
      for (const locale of breed.fallback) expect(breed.names[locale]).toBe(breed.names.en)
    }
    expect(new Set(catalogue.breeds.filter((b) => b.fci !== null).map((b) => b.fci)).size).toBe(
      catalogue.breeds.filter((b) => b.fci).length,
    )
  })

  it('lets no alias point at two breeds, nor at another breed’s name', () => {
    const owners = new Map<string, Set<string>>()
    for (const breed of catalogue.breeds)
      for (const name of [...Object.values(breed.names), ...breed.aliases])
        owners.set(breedKey(name), (owners.get(breedKey(name)) ?? new Set()).add(breed.id))
    for (const breed of catalogue.breeds)
      for (const alias of breed.aliases) expect([...(owners.get(breedKey(alias)) ?? [])], alias).toEqual([breed.id])
  })

  it('is the file its builder makes from its sources', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'kennect-breeds-')), 'breeds.json')
    const run = spawnSync(process.execPath, ['scripts/breeds/build-catalogue.ts', out])
    expect(run.status, run.stderr.toString()).toBe(0)
    expect(readFileSync(out, 'utf8')).toBe(readFileSync('contract/breeds.json', 'utf8'))
  })

  it.each(Object.entries(TOP))('finds %s by its name in every language', (id, typed) => {
    for (const locale of LOCALES) expect(matchBreed(index, typed[locale])?.id, `${locale}: "${typed[locale]}"`).toBe(id)
  })

  it('ignores case, accents, punctuation and word order, and knows the names people use', () => {
    const id = (typed: string) => matchBreed(index, typed)?.id
    expect(id('DEUTSCHER SCHAEFERHUND')).toBe('german-shepherd-dog')
    expect(id('schaferhund, deutscher')).toBe('german-shepherd-dog')
    expect(id('  berger-allemand ')).toBe('german-shepherd-dog')
    for (const alias of ['Alsatian', 'GSD']) expect(id(alias)).toBe('german-shepherd-dog')
    expect(id('Lab')).toBe('labrador-retriever')
    expect(id('Frenchie')).toBe('french-bulldog')
    expect(id('Vizsla')).toBe('hungarian-short-haired-pointer')
    expect(id('Labradoodle')).toBe('labradoodle')
    expect(id('a dog of my own breed')).toBeUndefined()
  })
})
