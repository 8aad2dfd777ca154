// The six languages as the server sends them (docs/decisions/016-languages.md): each page's lang,
// canonical, hreflang alternates (reciprocal, with x-default) and share tags; no page, visitor's
// page or mail of one language holding another language's sentence; unknown languages' paths.
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_LOCALE, type Locale, LOCALES, localePath, OG_LOCALES } from '../../contract/locales'
import type { VisitorRender, VisitorView } from '../../contract/visitor'
import type { BreedCatalogue } from '../../contract/breeds'
import catalogue from '../../contract/breeds.json'
import { catalogues } from '../../locales/index'
import { mailCopy } from '../../server/mail/content'
import { renderConfirmation } from '../../server/mail/templates'
import { visitorDir } from '../../server/paths'
import { pageContent } from '../../web/content'
import { startServer, type TestServer } from '../support/server'

const breeds = catalogue as BreedCatalogue

/** The site's address: where the test server listens (it has no SITE_URL), as its pages say. */
let SITE = 'http://localhost:3000'

const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&')

/** Every message of a catalogue, its placeholders filled where they are the site's own. */
function sentences(locale: Locale): string[] {
  const found: string[] = []
  const walk = (value: unknown) => {
    if (typeof value === 'string')
      found.push(value.replaceAll('{{product}}', 'Kennect').replaceAll('{{supportEmail}}', 'support@kennect.app'))
    else if (value && typeof value === 'object') Object.values(value).forEach(walk)
  }
  walk(catalogues[locale])
  return found
}

/**
 * The sentences of `other` a page of `locale` must not hold: each message's runs of words between
 * its placeholders, four words or more, and not words `locale` says itself (a breed name, "App Store").
 */
function foreignSentences(locale: Locale, other: Locale): string[] {
  const own = sentences(locale).join('\n')
  return sentences(other)
    .flatMap((text) => text.split(/\{\{\w+\}\}|[()]/))
    .map((fragment) => fragment.trim())
    .filter((fragment) => fragment.split(/\s+/).length >= 4 && !own.includes(fragment))
}

function expectNoForeignSentence(locale: Locale, text: string, where: string) {
  for (const other of LOCALES.filter((l) => l !== locale)) {
    const found = foreignSentences(locale, other).filter((fragment) => text.includes(fragment))
    expect(found, `${where} (${locale}) holds ${other} sentences`).toEqual([])
  }
}

describe('the pages in six languages', () => {
  let server: TestServer
  const pages = new Map<Locale, string>()
  beforeAll(async () => {
    server = await startServer()
    SITE = server.app.siteUrl()
    for (const locale of LOCALES) pages.set(locale, await (await fetch(`${server.url}${localePath(locale)}`)).text())
  })
  afterAll(() => server?.close())
  const page = (locale: Locale) => pages.get(locale) ?? ''
  const tags = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m.slice(1))

  it.each(LOCALES)('%s: says its language, names itself canonical, and its title and headline are its own', (locale) => {
    const html = page(locale)
    const content = pageContent(locale)
    expect(html).toMatch(new RegExp(`^<!doctype html>\\s*<html lang="${locale}">`, 'i'))
    expect(tags(html, /<link rel="canonical" href="([^"]+)"/g)).toEqual([[`${SITE}${localePath(locale)}`]])
    expect(decode(html)).toContain(`<title>${content.meta.title}</title>`)
    expect(decode(html)).toContain(content.hero.headline)
    expect(tags(html, /<meta property="og:locale" content="([^"]+)"/g)).toEqual([[OG_LOCALES[locale]]])
    expect(
      tags(html, /<meta property="og:locale:alternate" content="([^"]+)"/g)
        .flat()
        .sort(),
    ).toEqual(
      LOCALES.filter((l) => l !== locale)
        .map((l) => OG_LOCALES[l])
        .sort(),
    )
    expect(html).toContain(`"inLanguage":"${locale}"`)
  })

  it('link every language to every other, reciprocally, with English as x-default', () => {
    const alternates = new Map(
      LOCALES.map((locale) => [locale, tags(page(locale), /<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g)]),
    )
    const expected = [...LOCALES.map((l) => [l, `${SITE}${localePath(l)}`]), ['x-default', `${SITE}/`]]
    for (const locale of LOCALES) expect(alternates.get(locale), locale).toEqual(expected)
    // Reciprocal: each page a page names as an alternate names it back.
    for (const locale of LOCALES)
      for (const [lang, href] of alternates.get(locale) ?? [])
        if (lang !== 'x-default') {
          expect(href).toBe(`${SITE}${localePath(lang as Locale)}`)
          expect(alternates.get(lang as Locale)?.some(([, back]) => back === `${SITE}${localePath(locale)}`)).toBe(true)
        }
  })

  it.each(LOCALES)('%s: offers every language by its own name, with lang and hreflang, and no flag', (locale) => {
    const links = tags(page(locale), /<a href="([^"]+)" lang="([^"]+)" hreflang="([^"]+)"[^>]*>([^<]+)<\/a>/gi)
    expect(links.map(([href, lang, hreflang]) => [href, lang, hreflang])).toEqual(LOCALES.map((l) => [localePath(l), l, l]))
    expect(links.map(([, , , name]) => decode(name ?? ''))).toEqual(['English', 'Deutsch', 'Français', 'Español', 'Italiano', 'Polski'])
    expect(page(locale)).not.toMatch(/[\u{1F1E6}-\u{1F1FF}]/u) // regional-indicator letters: flags
  })

  it.each(LOCALES)('%s: holds no sentence of another language', (locale) => {
    // Except the default page's offers of the other pages, each in its own language (the language hint's words).
    const hints = /"languageHints":\[[^\]]*\]/
    expect(hints.test(page(locale))).toBe(locale === DEFAULT_LOCALE)
    expectNoForeignSentence(locale, decode(page(locale).replace(hints, '')), 'the landing page')
  })

  it.each(LOCALES)("%s: the visitor's page and the confirmation mail hold no sentence of another language", async (locale) => {
    const { visitor } = (await import(pathToFileURL(join(visitorDir, 'render.js')).href)) as { visitor: VisitorRender }
    const view: VisitorView = {
      base: '/me/x',
      locale,
      email: 'ada@example.com',
      joinedAt: '2026-11-24T10:00:00.000Z',
      confirmed: true,
      subscribed: true,
      profile: { role: 'breeder', breeds: [], country: 'DE', club: null, litters: null },
      notice: 'language',
      step: 'page',
      invite: { link: `${SITE}/?invite=abc`, joined: 2, confirmed: 1 },
      meter: { country: 'DE', breeders: 3, owners: 4, target: { breeders: 80, owners: 400 }, ready: false },
      breedMeters: [],
      app: { platform: 'ios', link: `${SITE}/app/abcdefghijklmnopqrstuv`, claimedAt: null },
    }
    const visitorHtml = decode(visitor.page(view).html)
    expectNoForeignSentence(locale, visitorHtml, "the visitor's page")
    // The breeds it offers are the catalogue's, in its language (issue 31: one breed, six names).
    const offered = [...visitorHtml.matchAll(/<option value="([^"]+)"/g)].map(([, name]) => name)
    const shepherd = breeds.breeds.find((breed) => breed.id === 'german-shepherd-dog')
    expect(offered).toContain(shepherd?.names[locale])
    if (locale !== 'en') expect(offered).not.toContain(shepherd?.names.en)
    expect(new Set(offered).size).toBeGreaterThan(350)
    expectNoForeignSentence(locale, decode(visitor.page({ ...view, step: 'confirm-delete' }).html), "the visitor's delete step")
    for (const why of ['not-found', 'deleted'] as const) expectNoForeignSentence(locale, decode(visitor.gone(why, locale).html), why)
    const mail = renderConfirmation(mailCopy('Kennect', locale), { page: `${SITE}/me/x`, unsubscribe: `${SITE}/me/x/unsubscribe` })
    expectNoForeignSentence(locale, decode(mail.html), 'the confirmation mail')
    expectNoForeignSentence(locale, mail.text, 'the confirmation mail (text)')
    expect(mail.html).toContain(`<html lang="${locale}">`)
  })

  it('sends /de to /de/, and an unknown language path is the 404 page, never a redirect by language', async () => {
    const de = await fetch(`${server.url}/de`, { redirect: 'manual' })
    expect([de.status, de.headers.get('location')]).toEqual([301, '/de/'])
    // Issue 39, item 13: an invite link or a campaign's address without the slash keeps its query.
    for (const locale of LOCALES.filter((l) => l !== DEFAULT_LOCALE)) {
      const query = '?invite=Ab3_x-9&utm_source=newsletter&utm_campaign=launch%20day'
      const answer = await fetch(`${server.url}/${locale}${query}`, { redirect: 'manual' })
      expect([answer.status, answer.headers.get('location')], locale).toEqual([301, `/${locale}/${query}`])
    }
    const bare = await fetch(`${server.url}/pl?`, { redirect: 'manual' })
    expect(bare.headers.get('location')).toBe('/pl/')
    for (const path of ['/xx/', '/en/', '/de/foo', '/DE/']) {
      const answer = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } })
      expect(answer.status, path).toBe(404)
    }
    // The browser's language changes nothing: every visitor gets the page they asked for.
    const asked = await fetch(`${server.url}/`, { headers: { 'accept-language': 'de-DE,de;q=0.9' }, redirect: 'manual' })
    expect(asked.status).toBe(200)
    expect(await asked.text()).toContain('<html lang="en">')
    expect(DEFAULT_LOCALE).toBe('en')
  })
})
