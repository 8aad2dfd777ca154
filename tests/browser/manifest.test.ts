// The web app manifest, percent-encoded in the page's head (a data: URL the Nu checker accepts):
// Chromium finds and parses it with JavaScript off, and every icon it names decodes to the size it
// says.
import { describe, expect, it } from 'vitest'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'

describe.skipIf(!chromiumAvailable)('the web app manifest', () => {
  const suite = useServerAndBrowser()

  it.each(['/', '/de/'])('is found on %s without JavaScript, parsed without errors, its icons decoded', async (path) => {
    const context = await suite.browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${suite.server.url}${path}`)
    const cdp = await context.newCDPSession(page)
    const { url, errors, data, parsed } = (await cdp.send('Page.getAppManifest', {})) as {
      url: string
      errors: { message: string; critical: number }[]
      data?: string
      parsed?: unknown
    }
    expect(url).toMatch(/^data:application\/manifest\+json,%7B/)
    expect(errors).toEqual([])
    expect(parsed ?? data).toBeDefined()
    const manifest = JSON.parse(data ?? '{}') as { name: string; icons: { src: string; sizes: string; type: string }[] }
    expect(manifest.name.length).toBeGreaterThan(0)
    expect(manifest.icons.length).toBeGreaterThanOrEqual(3)
    for (const icon of manifest.icons) {
      // The icons live on the site the page was built for: fetched from this server by their path.
      const answer = await fetch(`${suite.server.url}${new URL(icon.src).pathname}`)
      expect(answer.status, icon.src).toBe(200)
      const bytes = Buffer.from(await answer.arrayBuffer())
      expect(bytes.subarray(0, 8).toString('hex'), icon.src).toBe('89504e470d0a1a0a') // a PNG
      const [width, height] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)]
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes)
    }
    await context.close()
    // And Chromium decodes each: an <img> of it has its size.
    const viewer = await suite.browser.newPage()
    await viewer.goto(`${suite.server.url}/favicon.svg`)
    for (const icon of manifest.icons) {
      const size = await viewer.evaluate(
        (src) =>
          new Promise<string>((resolve) => {
            const img = new Image()
            img.onload = () => resolve(`${img.naturalWidth}x${img.naturalHeight}`)
            img.onerror = () => resolve('not decoded')
            img.src = src
          }),
        new URL(icon.src).pathname,
      )
      expect(size, icon.src).toBe(icon.sizes)
    }
    await viewer.close()
  })
})
