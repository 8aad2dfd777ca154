// Unknown paths: a person's browser gets a small page in the site's look with a way home; API
// clients keep the PostgREST JSON (supabase-js must never see an empty or HTML 404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCALES, localePath } from '../../contract/locales'
import { content, pageContent } from '../../web/content'
import { startServer, type TestServer } from '../support/server'

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

describe('an unknown path', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  it('answers a browser with a 404 page in the site look, with a link home and no script', async () => {
    const answer = await fetch(`${server.url}/nope?x=1`, { headers: { Accept: BROWSER_ACCEPT } })
    expect(answer.status).toBe(404)
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(answer.headers.get('cache-control')).toBe('no-cache')
    const html = await answer.text()
    expect(html).toContain(`<title>${content.notFound.title}</title>`)
    expect(html).toContain('<meta name="robots" content="noindex"')
    expect(html).toMatch(/<style>/) // the page's own CSS, inlined
    expect(html).toMatch(new RegExp(`<a [^>]*href="/"[^>]*>${content.notFound.home}</a>`))
    expect(html).not.toMatch(/<script/)
    expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'")
  })

  it.each(LOCALES.filter((locale) => locale !== 'en'))(
    'answers an unknown address under /%s/ in that language, with a link to its page',
    async (locale) => {
      const words = pageContent(locale).notFound
      for (const path of [`/${locale}/nope`, `/${locale}/a/b?x=1`]) {
        const answer = await fetch(`${server.url}${path}`, { headers: { Accept: BROWSER_ACCEPT } })
        expect(answer.status, path).toBe(404)
        const html = await answer.text()
        expect(html, path).toContain(`<html lang="${locale}"`)
        expect(html, path).toContain(`<title>${words.title}</title>`)
        expect(html, path).toMatch(new RegExp(`<a [^>]*href="${localePath(locale)}"[^>]*>${words.home}</a>`))
      }
      // Never served by its file name, in any language.
      expect((await fetch(`${server.url}/${locale}/404.html`, { headers: { Accept: BROWSER_ACCEPT } })).status).toBe(404)
      expect(await (await fetch(`${server.url}/${locale}/404.html`, { headers: { Accept: BROWSER_ACCEPT } })).text()).toContain(words.title)
    },
  )

  it('answers an unknown language (/xx/) with the English page', async () => {
    const html = await (await fetch(`${server.url}/xx/`, { headers: { Accept: BROWSER_ACCEPT } })).text()
    expect(html).toContain('<html lang="en"')
    expect(html).toContain(`<title>${content.notFound.title}</title>`)
  })

  it.each(['*/*', 'application/json', ''])('answers Accept %j with the PostgREST JSON', async (accept) => {
    const answer = await fetch(`${server.url}/nope`, { headers: accept ? { Accept: accept } : {} })
    expect(answer.status).toBe(404)
    expect(await answer.json()).toMatchObject({ code: 'not_found' })
  })

  it('keeps the API JSON under /rest/v1 and /admin/api, even for a browser', async () => {
    for (const path of ['/rest/v1/waitlist/x/y', '/admin/api/nope']) {
      const answer = await fetch(`${server.url}${path}`, { headers: { Accept: BROWSER_ACCEPT } })
      expect(answer.status, path).toBe(404)
      expect(answer.headers.get('content-type'), path).toBe('application/json; charset=utf-8')
    }
  })
})
