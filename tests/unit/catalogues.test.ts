// The message catalogues (locales/*.json, i18next's format): complete in every language, with each
// language's own plural forms and the same placeholders as English, and nothing kept that no
// code asks for (docs/decisions/016-languages.md).
import { describe, expect, it } from 'vitest'
import { DEFAULT_LOCALE, LOCALES } from '../../contract/locales'
import { adminCatalogues, adminTranslator, catalogues, keysAsked } from '../../locales/index'
import { adminContentFor, adminWordsIn } from '../support/admin-words'
import { mailCopy } from '../../server/mail/content'
import { pageContent } from '../../web/content'
import { visitorContent } from '../../web/visitor/content'
import { embedMeter, embedWords } from '../../web/embed/content'

const PLURAL = /_(zero|one|two|few|many|other)$/

/** Every message of a catalogue by its key (`page.hero.headline`, `page.about.paragraphs.0`). */
function messages(value: unknown, prefix = ''): Map<string, string> {
  const found = new Map<string, string>()
  if (typeof value === 'string') found.set(prefix, value)
  else if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value))
      for (const [k, v] of messages(child, prefix ? `${prefix}.${key}` : key)) found.set(k, v)
  return found
}

/** A message's key without its plural form, and the form (`waiting`, `many`). */
const pluralOf = (key: string) => ({ base: key.replace(PLURAL, ''), form: PLURAL.exec(key)?.[1] })
// `{{count, number}}`: the value and how i18next formats it (Intl.NumberFormat in the message's language).
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)(?:, *\w+)?\}\}/g)].map((m) => m[1]).sort()

const english = messages(catalogues[DEFAULT_LOCALE])

describe.each([
  { set: 'the page’s, the visitor’s and the mails’ (locales/)', of: catalogues },
  { set: 'the back office’s (locales/admin/)', of: adminCatalogues },
])('the catalogues: $set', ({ of }) => {
  const english = messages(of[DEFAULT_LOCALE])

  it.each(LOCALES.filter((locale) => locale !== DEFAULT_LOCALE))('%s has every message English has, and no other', (locale) => {
    const own = messages(of[locale])
    const singular = (keys: Iterable<string>) => [...new Set([...keys].map((key) => pluralOf(key).base))].sort()
    expect(singular(own.keys())).toEqual(singular(english.keys()))
  })

  it.each(LOCALES)("%s gives each plural message exactly the forms of its language's plural rules", (locale) => {
    const categories = [...new Intl.PluralRules(locale).resolvedOptions().pluralCategories].sort()
    const forms = new Map<string, string[]>()
    for (const key of messages(of[locale]).keys()) {
      const { base, form } = pluralOf(key)
      if (form) forms.set(base, [...(forms.get(base) ?? []), form])
    }
    expect(forms.size).toBeGreaterThan(0)
    for (const [base, found] of forms) expect([...found].sort(), `${locale}: ${base}`).toEqual(categories)
  })

  it.each(LOCALES)('%s uses the placeholders English uses in each message', (locale) => {
    const englishPlaceholders = new Map([...english].map(([key, text]) => [pluralOf(key).base, placeholders(text)]))
    for (const [key, text] of messages(of[locale])) {
      const expected = englishPlaceholders.get(pluralOf(key).base) ?? []
      // A plural form may leave its number out ("one" said in words), and a sentence may name the
      // product or not; nothing else (an address, a day, the support address) may go or come.
      const free = (name: string | undefined) => name !== 'count' && name !== 'product'
      expect(placeholders(text).filter(free), `${locale}: ${key}`).toEqual(expected.filter(free))
    }
  })

  it("translates every sentence: no message of four words or more is word for word another language's", () => {
    const all = new Map(LOCALES.map((locale) => [locale, messages(of[locale])]))
    const same: string[] = []
    for (const [i, locale] of LOCALES.entries())
      for (const other of LOCALES.slice(i + 1))
        for (const [key, text] of all.get(locale) ?? [])
          if (text.split(/\s+/).length >= 4 && all.get(other)?.get(key) === text) same.push(`${locale} = ${other}: ${key}`)
    expect(same).toEqual([])
  })

  it('addresses a Polish reader without a form only a man would be addressed by (or speak in)', () => {
    // Second and first person past tense in the masculine ("podałeś", "zapisałem"; not a noun's
    // instrumental such as "źródłem"), and "sam".
    const masculine = /\p{L}(?:łeś|[aiy]łem)(?!\p{L})|(?<!\p{L})sam(?!\p{L})/u
    const found = [...messages(of.pl)].filter(([, text]) => masculine.test(text)).map(([key, text]) => `${key}: ${text}`)
    expect(found).toEqual([])
  })
})

describe('the catalogues', () => {
  it('keeps no message that the pages, the visitor page and the mails never ask for', () => {
    keysAsked.clear()
    for (const locale of LOCALES) {
      const visitor = visitorContent(locale)
      // The messages made on demand: each asked for once, as the pages and the server ask for them.
      visitor.joined('a@b.co', 'today')
      visitor.profile.breedLabel(1)
      visitor.profile.sideLabel(1)
      visitor.profile.testsLabel(1)
      visitor.profile.otherTestsLabel(1)
      const breed = { breed: 'pug', name: 'Pug', target: { studs: 20, dams: 20 }, ready: true }
      visitor.launch.breedMeter({ ...breed, studs: 12, dams: null })
      visitor.launch.breedMeter({ ...breed, studs: null, dams: 12 })
      visitor.launch.breedHeading('DE')
      visitor.launch.breedTarget(breed.target)
      visitor.launch.breedReady('Pug')
      visitor.invite.counts(0, 0)
      visitor.invite.counts(2, 1)
      visitor.app.claimed('today')
      visitor.launch.meter('DE', { country: 'DE', breeders: 10, owners: 10, target: { breeders: 20, owners: 20 }, ready: false })
      visitor.launch.meter('DE', { country: 'DE', breeders: null, owners: null, target: { breeders: 20, owners: 20 }, ready: false })
      pageContent(locale)
      mailCopy('Kennect', locale)
      // A partner's embed: the page's words for its form, the visitor's page's and its own for its meter.
      embedWords(locale)
      embedMeter({ kind: 'breed', country: 'DE', meter: { ...breed, studs: 12, dams: null } }, locale)
    }
    const unused = [...new Set([...english.keys()].map((key) => pluralOf(key).base))].filter(
      (key) => ![...keysAsked].some((asked) => key === asked || key.startsWith(`${asked}.`)),
    )
    expect(unused).toEqual([])
  })

  it('says every counted number with its language’s plural form of the noun it counts', () => {
    // As a speaker writes them: Polish one (1), few (2–4, 22–24) and many (5–21, 25…), English one and other.
    const pl = visitorContent('pl')
    const target = (studs: number, dams: number) => pl.launch.breedTarget({ studs, dams })
    expect(target(1, 1)).toContain('1 reproduktor i 1 suka')
    expect(target(2, 2)).toContain('2 reproduktory i 2 suki')
    expect(target(5, 5)).toContain('5 reproduktorów i 5 suk')
    expect(target(22, 22)).toContain('22 reproduktory i 22 suki')
    expect(pl.invite.counts(1, 0)).toMatch(/^1 osoba zapisała się/)
    expect(pl.invite.counts(2, 0)).toMatch(/^2 osoby zapisały się/)
    expect(pl.invite.counts(5, 0)).toMatch(/^5 osób zapisało się/)
    expect(pl.invite.counts(22, 0)).toMatch(/^22 osoby zapisały się/)
    const en = visitorContent('en')
    expect(en.launch.breedTarget({ studs: 1, dams: 3 })).toContain('when 1 stud and 3 dams wait')
    expect(en.launch.breedTarget({ studs: 2, dams: 1 })).toContain('when 2 studs and 1 dam wait')
    expect(en.invite.counts(1, 1)).toMatch(/^1 person has joined/)
    expect(en.invite.counts(2, 1)).toMatch(/^2 people have joined/)
    // A number of four digits or more as the language writes it (Intl's own output, never a typed space).
    const meter = { country: 'DE' as const, breeders: null, owners: null, target: { breeders: 1200, owners: 12000 }, ready: false }
    for (const locale of LOCALES)
      expect(visitorContent(locale).launch.meter('X', meter)).toContain(new Intl.NumberFormat(locale).format(12000))
  })

  it('counts nothing outside a plural message: a message with {{count}} has its plural forms', () => {
    const counted = [...english].filter(([, text]) => placeholders(text).includes('count')).map(([key]) => key)
    expect(counted.length).toBeGreaterThan(0)
    expect(counted.filter((key) => pluralOf(key).form === undefined)).toEqual([])
  })
})

describe('the back office’s words', () => {
  it('are read by the admin page as the server’s i18next reads them, every message in every language', () => {
    const values = { email: 'ada@example.com', name: 'N', subject: 'S', url: 'U', time: 'T', at: 'A', id: 7, min: 10 }
    for (const locale of LOCALES) {
      const page = adminWordsIn(locale)
      const server = adminTranslator(locale)
      const all = [...messages(adminCatalogues[locale]).keys()]
      const counted = new Set(all.filter((key) => PLURAL.test(key)).map((key) => pluralOf(key).base))
      for (const key of new Set(all.map((k) => pluralOf(k).base)))
        for (const count of counted.has(key) ? [0, 1, 2, 5, 22, 112, 1.5, 1_000_000] : [undefined]) {
          const given = count === undefined ? values : { ...values, count }
          expect(page.t(key, given), `${locale}: ${key} (${count})`).toBe(server(key, given))
        }
    }
  })

  it('count recipients as each language says them: Polish one, few and many, French 0 and 1 singular', () => {
    const pl = adminContentFor('pl').campaigns
    expect([1, 2, 5, 22, 112].map((n) => pl.recipients(n))).toEqual([
      '1 odbiorca',
      '2 odbiorcy',
      '5 odbiorców',
      '22 odbiorcy',
      '112 odbiorców',
    ])
    const fr = adminContentFor('fr').campaigns
    expect([0, 1, 2].map((n) => fr.recipients(n))).toEqual(['0 destinataire', '1 destinataire', '2 destinataires'])
    const en = adminContentFor('en').campaigns
    expect([1, 2].map((n) => en.recipients(n))).toEqual(['1 recipient', '2 recipients'])
    // A number as the language writes it (Intl's own grouping, never a typed space).
    expect(pl.recipients(12_345)).toBe(`${new Intl.NumberFormat('pl').format(12_345)} odbiorców`)
  })
})
