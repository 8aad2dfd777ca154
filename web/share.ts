// How the page presents itself outside the browser tab (docs/decisions/004-link-previews.md): the head's
// canonical link, Open Graph and Twitter card tags, JSON-LD, icons and manifest, and the files
// crawlers and chat apps ask for. The build (scripts/build.mjs) writes the files and renders the
// images' SVG to PNG; everything they say comes from web/content.ts and SITE_URL.
import { DEFAULT_LOCALE, LOCALES, type Locale, localePath, OG_LOCALES } from '../contract/locales'
import { APP_SYSTEMS, STORE_SLOTS } from '../contract/paths'
import type { Content } from './content'
import faviconSvg from './share/favicon.svg?raw'
import ogTemplate from './share/og-image.svg?raw'
import type { Site } from './site'

export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630 } as const
/** The tab's colour on phones: the hero's background, which is what the top of the page shows. */
export const THEME_COLOR = '#0c0a09'
const BACKGROUND_COLOR = '#fafaf9'
const BRAND_COLOR = '#c2410c'

/** A PNG the build renders from an SVG, `width` by `height` pixels, to `path` in the built page. */
export interface ShareImage {
  path: string
  svg: string
  width: number
  height: number
}

export interface ShareKit {
  /** Tags for the page's <head>. */
  head: string
  /** The link preview in the page's language. */
  images: ShareImage[]
}

type ShareContent = Pick<Content, 'meta' | 'hero' | 'waitlist' | 'footer'>

/** The link preview of a language: `/og-image.png` for English, `/og-image-de.png` for German. */
export const ogImagePath = (locale: Locale) => (locale === DEFAULT_LOCALE ? OG_IMAGE.path : `/og-image-${locale}.png`)

/** The icons, one set for every language. */
const ICONS = {
  png32: { path: '/favicon-32.png', svg: () => icon({ rounded: true, scale: 1 }), width: 32, height: 32 },
  // iOS rounds the corners itself and shows transparency as black: a full square.
  apple: { path: '/apple-touch-icon.png', svg: () => icon({ rounded: false, scale: 0.8 }), width: 180, height: 180 },
  any192: { path: '/icon-192.png', svg: () => icon({ rounded: true, scale: 1 }), width: 192, height: 192 },
  any512: { path: '/icon-512.png', svg: () => icon({ rounded: true, scale: 1 }), width: 512, height: 512 },
  // Android crops maskable icons to a circle or squircle: the paw stays inside the safe zone.
  maskable: { path: '/icon-maskable-512.png', svg: () => icon({ rounded: false, scale: 0.7 }), width: 512, height: 512 },
}

/** The favicon, robots.txt and the sitemap (every language, each with its alternates), and the icons. */
export function siteFiles(site: Site, builtAt: Date): { files: Record<string, string>; images: ShareImage[] } {
  const url = (path: string) => `${site.siteUrl}${path}`
  const lastmod = builtAt.toISOString().slice(0, 10)
  const alternates = [
    ...LOCALES.map((locale) => `<xhtml:link rel="alternate" hreflang="${locale}" href="${escapeHtml(url(localePath(locale)))}"/>`),
    `<xhtml:link rel="alternate" hreflang="x-default" href="${escapeHtml(url('/'))}"/>`,
  ]
  return {
    files: {
      '/favicon.svg': faviconSvg,
      // The operators' page and the form and API routes are not for search engines.
      '/robots.txt': `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /join\nDisallow: /rest/\n\nSitemap: ${url('/sitemap.xml')}\n`,
      '/sitemap.xml': [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
        ...LOCALES.map(
          (locale) => `  <url><loc>${escapeHtml(url(localePath(locale)))}</loc><lastmod>${lastmod}</lastmod>${alternates.join('')}</url>`,
        ),
        '</urlset>',
        '',
      ].join('\n'),
    },
    images: Object.values(ICONS).map(({ svg, ...image }) => ({ ...image, svg: svg() })),
  }
}

/** The head of one language's page: canonical to itself, every language as an alternate, its share tags and JSON-LD. */
export function shareKit(site: Site, content: ShareContent): ShareKit {
  const url = (path: string) => `${site.siteUrl}${path}`
  const { meta, hero } = content
  const locale = meta.lang
  const home = url(localePath(locale))
  const siteHome = url('/')
  const image = url(ogImagePath(locale))
  const imageAlt = `${site.productName}: ${hero.headline}`
  const icons = ICONS

  const structuredData = {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'Organization',
        '@id': `${siteHome}#organization`,
        name: site.productName,
        url: siteHome,
        logo: url(icons.any512.path),
        email: site.supportEmail,
        contactPoint: { '@type': 'ContactPoint', contactType: 'customer support', email: site.supportEmail },
      },
      {
        '@type': 'MobileApplication',
        '@id': `${siteHome}#app`,
        name: site.productName,
        description: meta.description,
        inLanguage: locale,
        url: home,
        image,
        // Written in by our server as it has the stores (STORE_SLOTS); a page served elsewhere names the App Store's.
        operatingSystem: site.formAction ? STORE_SLOTS.systems : APP_SYSTEMS.ios,
        applicationCategory: 'LifestyleApplication',
        publisher: { '@id': `${siteHome}#organization` },
      },
    ],
  }

  // Its addresses are absolute: a data: URL is no base for relative ones. No start_url or scope:
  // the defaults (this page, its folder) are this one-page site's, and an absolute one would be
  // ignored, with a warning, wherever the page is served from another origin than SITE_URL.
  const manifest = {
    name: `${site.productName}: ${hero.headline}`,
    short_name: site.productName,
    lang: meta.lang,
    // A web page that tells people about an app, not the app: it opens in the browser.
    display: 'browser',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: url(icons.any192.path), sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: url(icons.any512.path), sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: url(icons.maskable.path), sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  }

  const tags: [string, Record<string, string>][] = [
    ['link', { rel: 'canonical', href: home }],
    // Every language, this one too, and English as the default (each page lists the same set).
    ...LOCALES.map((other): [string, Record<string, string>] => [
      'link',
      { rel: 'alternate', hreflang: other, href: url(localePath(other)) },
    ]),
    ['link', { rel: 'alternate', hreflang: 'x-default', href: siteHome }],
    // The manifest travels inside the HTML (a data: URL): found without JavaScript, and no request
    // of its own before the first paint (docs/performance.md). A favicon is asked for only after
    // the page has loaded, so it stays a file.
    ['link', { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }],
    ['link', { rel: 'icon', href: icons.png32.path, sizes: '32x32', type: 'image/png' }],
    ['link', { rel: 'apple-touch-icon', href: icons.apple.path }],
    ['link', { rel: 'manifest', href: jsonDataUrl('application/manifest+json', manifest) }],
    ['meta', { name: 'theme-color', content: THEME_COLOR }],
    ['meta', { name: 'color-scheme', content: 'light dark' }],
    ['meta', { property: 'og:type', content: 'website' }],
    ['meta', { property: 'og:site_name', content: site.productName }],
    ['meta', { property: 'og:title', content: meta.title }],
    ['meta', { property: 'og:description', content: meta.description }],
    ['meta', { property: 'og:url', content: home }],
    ['meta', { property: 'og:locale', content: OG_LOCALES[locale] }],
    ...LOCALES.filter((other) => other !== locale).map((other): [string, Record<string, string>] => [
      'meta',
      { property: 'og:locale:alternate', content: OG_LOCALES[other] },
    ]),
    ['meta', { property: 'og:image', content: image }],
    ['meta', { property: 'og:image:type', content: 'image/png' }],
    ['meta', { property: 'og:image:width', content: String(OG_IMAGE.width) }],
    ['meta', { property: 'og:image:height', content: String(OG_IMAGE.height) }],
    ['meta', { property: 'og:image:alt', content: imageAlt }],
    ['meta', { name: 'twitter:card', content: 'summary_large_image' }],
    ['meta', { name: 'twitter:title', content: meta.title }],
    ['meta', { name: 'twitter:description', content: meta.description }],
    ['meta', { name: 'twitter:image', content: image }],
    ['meta', { name: 'twitter:image:alt', content: imageAlt }],
  ]
  const head = [
    ...tags.map(
      ([name, attributes]) =>
        `<${name} ${Object.entries(attributes)
          .map(([k, v]) => `${k}="${escapeHtml(v)}"`)
          .join(' ')} />`,
    ),
    // A data block, never run (so the page's script-src 'self' is not involved); `<` is escaped so
    // no text can close the element.
    `<script type="application/ld+json">${JSON.stringify(structuredData).replace(/</g, '\\u003c')}</script>`,
  ].join('\n    ')

  return { head, images: [{ ...OG_IMAGE, path: ogImagePath(locale), svg: ogImage(site, content) }] }
}

/** The paw of the favicon on the brand colour, the paw scaled about the centre. */
function icon({ rounded, scale }: { rounded: boolean; scale: number }): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32"${rounded ? ' rx="8"' : ''} fill="${BRAND_COLOR}"/><g transform="translate(16 16) scale(${scale}) translate(-16 -16)">${paw()}</g></svg>`
}

/** The paw's shapes, taken from the favicon so there is one drawing of it. */
function paw(): string {
  const match = /<g fill="#fff">[\s\S]*?<\/g>/.exec(faviconSvg)
  if (!match) throw new Error('web/share/favicon.svg: expected the paw in <g fill="#fff">…</g>')
  return match[0]
}

function ogImage(site: Site, { hero, waitlist }: ShareContent): string {
  const lines = wrap(hero.headline, 22)
  const lineHeight = 88
  const fill: Record<string, string> = {
    mark: `<rect width="32" height="32" rx="8" fill="${BRAND_COLOR}"/>${paw()}`,
    product: escapeHtml(site.productName),
    // The headline block sits between the name (y 110) and the button (y 470), centred.
    headlineY: String(Math.round(290 - ((lines.length - 1) * lineHeight) / 2 + 26)),
    headline: lines.map((line, i) => `<tspan x="80" dy="${i === 0 ? 0 : lineHeight}">${escapeHtml(line)}</tspan>`).join(''),
    pill: escapeHtml(waitlist.submit),
    pillWidth: String(Math.round(waitlist.submit.length * 13 + 64)),
    host: escapeHtml(new URL(site.siteUrl).host),
  }
  return ogTemplate.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = fill[key]
    if (value === undefined) throw new Error(`web/share/og-image.svg: nothing to fill {{${key}}} with`)
    return value
  })
}

/** Greedy word wrap at `width` characters: the SVG text has no wrapping of its own. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  for (const word of text.split(/\s+/)) {
    const last = lines.at(-1)
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`
    else lines.push(word)
  }
  return lines
}

/**
 * `value` as JSON in a data: URL: percent-encoded but for the punctuation a URL may hold as it is
 * (`,` `:` `/` `@`: fewer bytes). Braces, brackets and quotes stay encoded: the URL standard does
 * not allow them (the W3C Nu checker refuses the link otherwise), and the attribute needs no escaping.
 */
export function jsonDataUrl(type: string, value: unknown): string {
  const encoded = encodeURIComponent(JSON.stringify(value)).replace(/%(?:2C|3A|2F|40)/g, (code) => decodeURIComponent(code))
  return `data:${type},${encoded}`
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}
