// The page as a link pasted into a chat (docs/decisions/004-link-previews.md): what a link-preview crawler
// reads from the HTML without running any script, and every file those tags point to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content } from '../../web/content'
import { OG_IMAGE, THEME_COLOR } from '../../web/share'
import { readSite } from '../../web/site'
import { startServer, type TestServer } from '../support/server'
import { LOCALES, localePath } from '../../contract/locales'

// The build under test was made with the environment of `npm test` (SITE_URL unset: the default);
// the server names the address it runs with instead (server/http/site-address.ts): where it listens.
const site = readSite(process.env)
let siteUrl = site.siteUrl
let home = `${siteUrl}/`

let server: TestServer
let html = ''
beforeAll(async () => {
  server = await startServer()
  siteUrl = server.app.siteUrl()
  home = `${siteUrl}/`
  const answer = await fetch(`${server.url}/`, { headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' } })
  expect(answer.status).toBe(200)
  html = await answer.text()
})
afterAll(() => server?.close())

/** The attributes of every tag of that name in the head, as a crawler parses them. */
function tags(name: 'meta' | 'link'): Record<string, string>[] {
  const head = html.slice(0, html.indexOf('</head>'))
  return [...head.matchAll(new RegExp(`<${name}\\s([^>]*?)\\s*/?>`, 'g'))].map(([, attributes = '']) =>
    Object.fromEntries(
      [...attributes.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, key = '', value = '']) => [
        key,
        value
          .replace(/&quot;/g, '"')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&'),
      ]),
    ),
  )
}
const meta = (key: string) =>
  tags('meta')
    .filter((tag) => tag.property === key || tag.name === key)
    .map((tag) => tag.content)
const link = (rel: string) => tags('link').filter((tag) => tag.rel === rel)
const structuredData = () => {
  const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null'
  return JSON.parse(json) as { '@context': string; '@graph': Record<string, unknown>[] }
}

/** Fetches a URL the page names, from the test server (the build's SITE_URL is not this server). */
async function served(url: string): Promise<Response> {
  const path = url.startsWith(siteUrl) ? url.slice(siteUrl.length) : url
  expect(path).toMatch(/^\//)
  return fetch(`${server.url}${path}`)
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const view = new DataView(bytes.buffer, bytes.byteOffset)
  return { width: view.getUint32(16), height: view.getUint32(20) }
}

describe('the tags a link preview reads', () => {
  it('name the page once each: canonical, title, description, theme colour', () => {
    expect(link('canonical').map((tag) => tag.href)).toEqual([home])
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toBe(content.meta.title)
    expect(meta('description')).toEqual([content.meta.description])
    expect(meta('theme-color')).toEqual([THEME_COLOR])
    expect(meta('color-scheme')).toEqual(['light dark'])
  })

  it('Open Graph: a website with title, description, address and a 1200×630 PNG with its text', () => {
    const imageUrl = `${siteUrl}${OG_IMAGE.path}`
    const expected: Record<string, string> = {
      'og:type': 'website',
      'og:site_name': site.productName,
      'og:title': content.meta.title,
      'og:description': content.meta.description,
      'og:url': home,
      'og:locale': 'en_US',
      'og:image': imageUrl,
      'og:image:type': 'image/png',
      'og:image:width': '1200',
      'og:image:height': '630',
      'og:image:alt': `${site.productName}: ${content.hero.headline}`,
    }
    for (const [key, value] of Object.entries(expected)) expect(meta(key), key).toEqual([value])
  })

  it('Twitter: a large image card with the same title, description and image', () => {
    expect(meta('twitter:card')).toEqual(['summary_large_image'])
    expect(meta('twitter:title')).toEqual([content.meta.title])
    expect(meta('twitter:description')).toEqual([content.meta.description])
    expect(meta('twitter:image')).toEqual(meta('og:image'))
    expect(meta('twitter:image:alt')).toEqual(meta('og:image:alt'))
  })

  it('JSON-LD: the app (MobileApplication) and the organisation behind it', () => {
    const data = structuredData()
    expect(data['@context']).toBe('https://schema.org')
    const byType = Object.fromEntries(data['@graph'].map((node) => [node['@type'], node]))
    expect(byType.MobileApplication).toMatchObject({
      name: site.productName,
      description: content.meta.description,
      url: home,
      operatingSystem: 'iOS',
      publisher: { '@id': byType.Organization?.['@id'] },
    })
    expect(byType.Organization).toMatchObject({ name: site.productName, url: home, email: site.supportEmail })
  })

  it('JSON-LD: the app on Android too where the server has PLAY_STORE_URL', async () => {
    const withPlay = await startServer({ PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=app.kennect.android' })
    try {
      for (const locale of LOCALES) {
        const page = await (await fetch(`${withPlay.url}${localePath(locale)}`)).text()
        const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page)?.[1] ?? 'null'
        const graph = (JSON.parse(json) as { '@graph': Record<string, unknown>[] })['@graph']
        expect(graph.find((node) => node['@type'] === 'MobileApplication')?.operatingSystem, locale).toBe('iOS, Android')
      }
    } finally {
      await withPlay.close()
    }
  })

  it('icons: an SVG favicon, a PNG fallback, an Apple touch icon and a manifest in the HTML', () => {
    expect(link('icon')).toEqual([
      { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
      { rel: 'icon', href: '/favicon-32.png', sizes: '32x32', type: 'image/png' },
    ])
    expect(link('apple-touch-icon').map((tag) => tag.href)).toEqual(['/apple-touch-icon.png'])
    expect(link('manifest')).toHaveLength(1)
  })
})

describe('every file the tags point to is served', () => {
  it('images: PNGs of the sizes they claim, the SVG favicon as SVG', async () => {
    const data = structuredData()
    const images: [string, { width: number; height: number } | null][] = [
      [meta('og:image')[0] ?? '', { width: 1200, height: 630 }],
      ['/favicon-32.png', { width: 32, height: 32 }],
      ['/apple-touch-icon.png', { width: 180, height: 180 }],
      ['/favicon.svg', null],
      ...data['@graph']
        .flatMap((node) => [node.logo, node.image].filter((url): url is string => typeof url === 'string'))
        .map((url): [string, null] => [url, null]),
    ]
    for (const [url, size] of images) {
      const answer = await served(url)
      expect(answer.status, url).toBe(200)
      const bytes = new Uint8Array(await answer.arrayBuffer())
      if (url.endsWith('.svg')) {
        expect(answer.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
        expect(new TextDecoder().decode(bytes)).toMatch(/^<svg[\s\S]*<\/svg>\s*$/)
      } else {
        expect(answer.headers.get('content-type'), url).toBe('image/png')
        if (size) expect(pngSize(bytes), url).toEqual(size)
      }
    }
  })

  it('the manifest, inside the HTML: the name, colours, and icons of the sizes it lists', async () => {
    const href = link('manifest')[0]?.href ?? ''
    expect(href).toMatch(/^data:application\/manifest\+json,/)
    const manifest = JSON.parse(decodeURIComponent(href.slice(href.indexOf(',') + 1))) as {
      name: string
      short_name: string
      start_url?: string
      theme_color: string
      icons: { src: string; sizes: string; type: string; purpose: string }[]
    }
    // No start_url: the default, this page, is right wherever it is served from.
    expect(manifest).toMatchObject({ short_name: site.productName, theme_color: THEME_COLOR })
    expect(manifest.start_url).toBeUndefined()
    // A data: URL is no base: every address is absolute, on SITE_URL.
    for (const icon of manifest.icons) expect(icon.src.startsWith(`${siteUrl}/`), icon.src).toBe(true)
    expect(manifest.icons.map((icon) => icon.purpose).sort()).toEqual(['any', 'any', 'maskable'])
    for (const icon of manifest.icons) {
      const [width, height] = icon.sizes.split('x').map(Number)
      expect(pngSize(new Uint8Array(await (await served(icon.src)).arrayBuffer())), icon.src).toEqual({ width, height })
    }
  })

  it("robots.txt lets crawlers in, keeps them off the operators' page and the API, and names the sitemap", async () => {
    const answer = await served('/robots.txt')
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/)
    const robots = await answer.text()
    expect(robots).toMatch(/^User-agent: \*$/m)
    for (const path of ['/admin', '/join', '/rest/']) expect(robots).toContain(`\nDisallow: ${path}\n`)
    expect(robots).toContain(`\nSitemap: ${siteUrl}/sitemap.xml\n`)
  })

  it("sitemap.xml lists each language's page, each with every language as an alternate, and nothing else (no /admin)", async () => {
    const answer = await served('/sitemap.xml')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/xml/)
    const sitemap = await answer.text()
    const pages = LOCALES.map((locale) => `${siteUrl}${localePath(locale)}`)
    expect([...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1])).toEqual(pages)
    for (const url of sitemap.split('<url>').slice(1)) {
      const alternates = [...url.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map(([, lang, href]) => [lang, href])
      expect(alternates).toEqual([...LOCALES.map((locale) => [locale, `${siteUrl}${localePath(locale)}`]), ['x-default', home]])
    }
    expect(sitemap).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/)
  })
})
