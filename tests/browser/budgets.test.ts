// The page's byte budgets (docs/performance.md), measured deterministically: what the page makes a browser download,
// how it is compressed and cached. (Timings belong to `npm run lighthouse`, not to tests.)
import { get } from 'node:http'
import type { Response } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { LOCALES, localePath } from '../../contract/locales'
import { content } from '../../web/content'
import { emailInput, waitForHydration } from '../support/page'

/** JavaScript the page loads, gzipped. */
const SCRIPT_BUDGET_BYTES = 90_000
/**
 * The HTML with its inlined CSS as a browser downloads it (brotli: every browser asks for it), on
 * every language's page: the first paint needs nothing more.
 */
const HTML_BUDGET_BYTES = 20_000
/**
 * The same gzipped, for clients that do not ask for brotli (no current browser): 1.5 KB more, for
 * the six languages' alternates and the longer languages' words (docs/decisions/016-languages.md
 * has the measurements).
 */
const HTML_GZIP_BUDGET_BYTES = 21_500
/** Images loaded before the first interaction, at each width: the hero's drawings are in the HTML, the favicon too. */
const IMAGE_BUDGET_BYTES = 0

describe.skipIf(!chromiumAvailable)('page weight and caching', () => {
  // The page as production sends it: the server writes its SITE_URL into the page (13 times, in
  // the alternates, share tags and JSON-LD), so the address weighs in; the product's own, not a
  // test port's.
  const suite = useServerAndBrowser({ SITE_URL: 'https://kennect.app' })

  /** The bytes that cross the wire in that encoding (the HTML, compressed as it is sent, has no Content-Length). */
  const transferSize = (url: string, encoding = 'gzip') =>
    new Promise<number>((resolve, reject) => {
      get(url, { headers: { 'Accept-Encoding': encoding } }, (answer) => {
        expect(answer.headers['content-encoding']).toBe(encoding)
        let bytes = 0
        answer.on('data', (chunk: Buffer) => (bytes += chunk.length))
        answer.on('end', () => resolve(bytes))
        answer.on('error', reject)
      }).on('error', reject)
    })
  const gzippedSize = (url: string) => transferSize(url, 'gzip')

  it("loads at most 90 KB of gzipped JavaScript, the typo hint's included, and no font or stylesheet", async () => {
    const page = await suite.browser.newPage()
    const responses: Response[] = []
    page.on('response', (response) => responses.push(response))
    await page.goto(`${suite.server.url}/`)
    await waitForHydration(page)
    // The typo hint's check arrives when the field is first focused: counted too.
    await emailInput(page).focus()
    await page.waitForResponse((response) => response.request().resourceType() === 'script' && !response.url().includes('/index-'))
    const byType = (type: string) => responses.filter((r) => r.request().resourceType() === type)
    const scripts = byType('script').map((r) => r.url())
    expect(scripts).toHaveLength(2)
    let scriptBytes = 0
    for (const url of scripts) scriptBytes += await gzippedSize(url)
    console.log(`budget: ${scripts.length} script(s), ${scriptBytes} bytes gzipped (budget ${SCRIPT_BUDGET_BYTES})`)
    expect(scriptBytes).toBeLessThanOrEqual(SCRIPT_BUDGET_BYTES)
    expect(byType('stylesheet')).toEqual([])
    expect(byType('font')).toEqual([])
    await page.context().close()
  })

  it.each([390, 1280])(
    'loads at most %i px worth of images before the first interaction: none; the dogs below as the visitor nears them',
    async (width) => {
      const page = await suite.browser.newPage({ viewport: { width, height: width < 800 ? 844 : 800 } })
      const images: Response[] = []
      page.on('response', (response) => {
        if (response.request().resourceType() === 'image') images.push(response)
      })
      await page.goto(`${suite.server.url}/`, { waitUntil: 'networkidle' })
      await waitForHydration(page)
      const imageBytes = async () =>
        (await Promise.all(images.map(async (image) => (await image.body()).length))).reduce((a, b) => a + b, 0)
      const before = await imageBytes()
      console.log(
        `budget: ${width} px, ${images.length} image(s), ${before} bytes before the first interaction (budget ${IMAGE_BUDGET_BYTES})`,
      )
      expect(before).toBeLessThanOrEqual(IMAGE_BUDGET_BYTES)
      // Scrolled to the form, the drawings on the way arrive, each small, and take no more room than they were given.
      const waitlist = page.locator(`#${content.waitlist.id}`)
      await page.locator(`#${content.howItWorks.id}`).scrollIntoViewIfNeeded()
      await waitlist.scrollIntoViewIfNeeded()
      await page.waitForFunction(() =>
        [...document.querySelectorAll('img[src^="/art/"]')].every((img) => (img as HTMLImageElement).complete),
      )
      const art = await page.$$eval('img[src^="/art/"]', (imgs) =>
        imgs.map((img) => ({
          loaded: (img as HTMLImageElement).naturalWidth > 0,
          alt: img.getAttribute('alt'),
          lazy: img.getAttribute('loading'),
        })),
      )
      expect(art.length).toBeGreaterThanOrEqual(5)
      expect(art.every((a) => a.loaded && a.alt === '' && a.lazy === 'lazy')).toBe(true)
      for (const image of images) expect((await image.body()).length, image.url()).toBeLessThanOrEqual(2_048)
      await page.close()
    },
  )

  it.each(LOCALES)('needs nothing but the HTML for the first paint, within the budget, on the %s page', async (locale) => {
    const url = `${suite.server.url}${localePath(locale)}`
    const html = await (await fetch(url)).text()
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head).not.toMatch(/<link[^>]+rel="stylesheet"/)
    expect(head).not.toMatch(/@import/)
    // Every script is a module (deferred): none blocks parsing or rendering. (JSON-LD and the islands'
    // words are data, never run.)
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag).filter((tag) => !/application\/(ld\+)?json/.test(tag))
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toMatch(/type="module"/)
    const htmlBytes = await gzippedSize(url)
    const brotliBytes = await transferSize(url, 'br')
    console.log(
      `budget: ${locale} HTML ${brotliBytes} bytes brotli (budget ${HTML_BUDGET_BYTES}), ${htmlBytes} gzipped (${HTML_GZIP_BUDGET_BYTES})`,
    )
    expect(brotliBytes).toBeLessThanOrEqual(HTML_BUDGET_BYTES)
    expect(htmlBytes).toBeLessThanOrEqual(HTML_GZIP_BUDGET_BYTES)
    // One script for every language: the words are in the page, not in the script.
    expect([...html.matchAll(/import\("([^"]+)"\)/g)].map(([, src]) => src)).toEqual(
      [...(await (await fetch(`${suite.server.url}/`)).text()).matchAll(/import\("([^"]+)"\)/g)].map(([, src]) => src),
    )
  })

  it('serves brotli or gzip copies, caches hashed files for a year and revalidates the rest', async () => {
    const html = await fetch(`${suite.server.url}/`, { headers: { 'Accept-Encoding': 'br, gzip' } })
    expect(html.headers.get('content-encoding')).toBe('br')
    expect(html.headers.get('cache-control')).toBe('no-cache')
    expect(html.headers.get('vary')?.toLowerCase()).toContain('accept-encoding')
    // The HTML carries a fresh form token on every visit: no validator that could revive an old one.
    expect(html.headers.get('etag')).toBeNull()
    const icon = await fetch(`${suite.server.url}/favicon.svg`)
    expect(icon.headers.get('cache-control')).toBe('no-cache')
    const etag = icon.headers.get('etag')
    expect(etag).toBeTruthy()
    // As a browser revalidates. (Without an explicit Cache-Control, fetch adds `no-cache`, which
    // rightly asks for the whole answer.)
    const again = await fetch(`${suite.server.url}/favicon.svg`, { headers: { 'If-None-Match': etag ?? '', 'Cache-Control': 'max-age=0' } })
    expect(again.status).toBe(304)

    // The page's loader imports its one bundle after the first paint (scripts/build.mjs).
    const script = /import\("([^"]+)"\)/.exec(await html.text())?.[1]
    expect(script).toMatch(/^\/assets\/.+-[\w-]{8}\.js$/)
    const asset = await fetch(`${suite.server.url}${script}`, { headers: { 'Accept-Encoding': 'br' } })
    expect(asset.headers.get('content-encoding')).toBe('br')
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const plain = await fetch(`${suite.server.url}${script}`, { headers: { 'Accept-Encoding': 'identity' } })
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect((await fetch(`${suite.server.url}${script}.br`)).status).toBe(404)
  })
})
