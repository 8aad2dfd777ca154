// The page's byte budgets (docs/performance.md), measured deterministically: what the page makes a browser download,
// how it is compressed and cached. (Timings belong to `npm run lighthouse`, not to tests.)
import { get } from 'node:http'
import type { Response } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { waitForHydration } from '../support/page'

/** JavaScript the page loads, gzipped. */
const SCRIPT_BUDGET_BYTES = 90_000
/** The HTML with its inlined CSS, gzipped: the first paint needs nothing more. */
const HTML_BUDGET_BYTES = 20_000

describe.skipIf(!chromiumAvailable)('page weight and caching', () => {
  const suite = useServerAndBrowser()

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

  it('loads at most 90 KB of gzipped JavaScript and no image, font or stylesheet', async () => {
    const page = await suite.browser.newPage()
    const responses: Response[] = []
    page.on('response', (response) => responses.push(response))
    await page.goto(`${suite.server.url}/`)
    await waitForHydration(page)
    const byType = (type: string) => responses.filter((r) => r.request().resourceType() === type)
    const scripts = byType('script').map((r) => r.url())
    expect(scripts.length).toBeGreaterThan(0)
    let scriptBytes = 0
    for (const url of scripts) scriptBytes += await gzippedSize(url)
    console.log(`budget: ${scripts.length} script(s), ${scriptBytes} bytes gzipped (budget ${SCRIPT_BUDGET_BYTES})`)
    expect(scriptBytes).toBeLessThanOrEqual(SCRIPT_BUDGET_BYTES)
    expect(byType('stylesheet')).toEqual([])
    expect(byType('font')).toEqual([])
    // Images: the SVG favicon only, and small.
    const images = byType('image').concat(responses.filter((r) => /\.(png|jpe?g|webp|avif|gif|ico)$/.test(r.url())))
    for (const image of images) expect((await image.body()).length).toBeLessThan(2_048)
    await page.context().close()
  })

  it('needs nothing but the HTML for the first paint', async () => {
    const html = await (await fetch(`${suite.server.url}/`)).text()
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head).not.toMatch(/<link[^>]+rel="stylesheet"/)
    expect(head).not.toMatch(/@import/)
    // Every script is a module (deferred): none blocks parsing or rendering. (JSON-LD is data, never run.)
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag).filter((tag) => !tag.includes('application/ld+json'))
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toMatch(/type="module"/)
    const htmlBytes = await gzippedSize(`${suite.server.url}/`)
    const brotliBytes = await transferSize(`${suite.server.url}/`, 'br')
    console.log(`budget: HTML ${htmlBytes} bytes gzipped, ${brotliBytes} brotli (budget ${HTML_BUDGET_BYTES})`)
    expect(htmlBytes).toBeLessThanOrEqual(HTML_BUDGET_BYTES)
    expect(brotliBytes).toBeLessThanOrEqual(HTML_BUDGET_BYTES)
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

    const script = /<script[^>]+src="([^"]+)"/.exec(await html.text())?.[1]
    expect(script).toMatch(/^\/assets\/.+-[\w-]{8}\.js$/)
    const asset = await fetch(`${suite.server.url}${script}`, { headers: { 'Accept-Encoding': 'br' } })
    expect(asset.headers.get('content-encoding')).toBe('br')
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const plain = await fetch(`${suite.server.url}${script}`, { headers: { 'Accept-Encoding': 'identity' } })
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect((await fetch(`${suite.server.url}${script}.br`)).status).toBe(404)
  })
})
