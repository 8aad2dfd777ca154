import { describe, expect, it } from 'vitest'
import { content } from '../../web/content'
import { pageContent } from '../../web/content'
import { shareKit, siteFiles, wrap } from '../../web/share'
import { readSite } from '../../web/site'

describe('shareKit', () => {
  const builtAt = new Date(Date.UTC(2026, 10, 21))

  it('puts SITE_URL in every absolute address: canonical, share tags, JSON-LD, robots, sitemap', () => {
    const site = readSite({ SITE_URL: 'https://kennect.example/' })
    const kit = shareKit(site, content)
    expect(kit.head).toContain('<link rel="canonical" href="https://kennect.example/" />')
    expect(kit.head).toContain('<meta property="og:image" content="https://kennect.example/og-image.png" />')
    expect(kit.head).toContain('"logo":"https://kennect.example/icon-512.png"')
    const { files } = siteFiles(site, builtAt)
    expect(files['/robots.txt']).toContain('Sitemap: https://kennect.example/sitemap.xml')
    expect(files['/sitemap.xml']).toContain('<loc>https://kennect.example/</loc><lastmod>2026-11-21</lastmod>')
    expect(kit.head).not.toContain('localhost')
  })

  it('gives each language its own canonical, og:locale and preview, and names every language as an alternate', () => {
    const site = readSite({ SITE_URL: 'https://kennect.example' })
    const german = shareKit(site, pageContent('de')).head
    expect(german).toContain('<link rel="canonical" href="https://kennect.example/de/" />')
    expect(german).toContain('<meta property="og:locale" content="de_DE" />')
    expect(german).toContain('<meta property="og:locale:alternate" content="en_US" />')
    expect(german).not.toContain('<meta property="og:locale:alternate" content="de_DE" />')
    expect(german).toContain('<meta property="og:image" content="https://kennect.example/og-image-de.png" />')
    expect(german).toContain('<link rel="alternate" hreflang="pl" href="https://kennect.example/pl/" />')
    expect(german).toContain('<link rel="alternate" hreflang="x-default" href="https://kennect.example/" />')
    expect(german).toContain('"inLanguage":"de"')
  })

  it('escapes what it is given: no attribute or script element can be closed by the copy', () => {
    const site = readSite({ VITE_PRODUCT_NAME: 'K"9</script><script>alert(1)</script>' })
    const kit = shareKit(site, content)
    expect(kit.head.match(/<script/g)).toHaveLength(1)
    expect(kit.head.match(/<\/script>/g)).toHaveLength(1)
    expect(kit.head).toContain('<meta property="og:site_name" content="K&quot;9&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" />')
    const og = kit.images.find((image) => image.path === '/og-image.png')?.svg ?? ''
    expect(og).toContain('K&quot;9&lt;/script&gt;')
    expect(og).not.toMatch(/\{\{\w+\}\}/)
  })

  it('makes the icons square at the sizes the tags and the manifest name', () => {
    const images = [...siteFiles(readSite({}), builtAt).images, ...shareKit(readSite({}), content).images]
    const sizes = Object.fromEntries(images.map((image) => [image.path, `${image.width}x${image.height}`]))
    expect(sizes).toEqual({
      '/favicon-32.png': '32x32',
      '/apple-touch-icon.png': '180x180',
      '/icon-192.png': '192x192',
      '/icon-512.png': '512x512',
      '/icon-maskable-512.png': '512x512',
      '/og-image.png': '1200x630',
    })
  })
})

describe('wrap', () => {
  it('breaks between words at the width, never inside a word', () => {
    expect(wrap('Find the Perfect Match for Your Dog', 22)).toEqual(['Find the Perfect Match', 'for Your Dog'])
    expect(wrap('Supercalifragilistic word', 5)).toEqual(['Supercalifragilistic', 'word'])
  })
})
