import { StrictMode } from 'react'
import { renderToStaticMarkup, renderToString } from 'react-dom/server'
import type { LandingWords } from '../contract/growth'
import { DEFAULT_LOCALE, LOCALES, localePath } from '../contract/locales'
import { APP_SYSTEMS, STORE_SLOTS, WAITING_SLOT } from '../contract/paths'
import { App } from './app'
import { artFiles } from './components/dog-art'
import { NotFound } from './not-found'
import { pageContent } from './content'
import { PlayBadge } from './sections/hero'
import { escapeHtml, shareKit, siteFiles, type ShareImage } from './share'
import { site } from './site'

/** One language's page. */
export interface PrerenderedPage {
  /** Where it is served: `/`, `/de/`… */
  path: string
  lang: string
  html: string
  /** Everything the <head> says of the page: title, description, alternates, share tags, icons. */
  head: string
}

export interface Prerendered {
  pages: PrerenderedPage[]
  /** Files the build writes beside the pages (robots.txt, sitemap.xml, favicon, the dogs below the fold). */
  files: Record<string, string>
  /** Images the build renders from SVG to PNG (icons, each language's link preview). */
  images: ShareImage[]
  /** The page for unknown addresses in each language (404.html, de/404.html…): no script, not for search engines. */
  notFound: PrerenderedPage[]
  /** What the server says in each page's slot (dist/landing.json), keyed by the page's path. */
  words: Record<string, LandingWords>
}

/** Used only by the build (scripts/build.mjs): every language's page as HTML, its head, and the site's files. */
export function render(): Prerendered {
  const pages: PrerenderedPage[] = []
  const images: ShareImage[] = []
  const words: Record<string, LandingWords> = {}
  for (const locale of LOCALES) {
    const content = pageContent(locale)
    const share = shareKit(site, content)
    const html = renderToString(
      <StrictMode>
        <App content={content} />
      </StrictMode>,
    )
    const head = [
      `<title>${escapeHtml(content.meta.title)}</title>`,
      `<meta name="description" content="${escapeHtml(content.meta.description)}" />`,
      // The first paint waits until the parser has read the whole hero (to the section after it):
      // never a half-parsed hero painted, then moved as the rest arrives (docs/performance.md).
      `<link rel="expect" href="#${escapeHtml(content.about.id)}" blocking="render" />`,
      share.head,
    ].join('\n    ')
    pages.push({ path: localePath(locale), lang: locale, html, head })
    images.push(...share.images)
    words[localePath(locale)] = {
      lang: locale,
      note: content.hero.note,
      waiting: content.hero.waiting,
      stores: {
        eyebrow: { ios: content.hero.eyebrow, both: content.hero.eyebrowBothStores },
        subtext: { ios: content.waitlist.subtext, both: content.waitlist.subtextBothStores },
        playBadge: renderToStaticMarkup(<PlayBadge content={content.hero} waitlistId={content.waitlist.id} />),
      },
    }
  }
  const shared = siteFiles(site, new Date())
  const notFound = LOCALES.map((locale): PrerenderedPage => {
    const words = pageContent(locale).notFound
    return {
      path: localePath(locale),
      lang: locale,
      html: renderToString(<NotFound content={words} brand={site.productName} home={localePath(locale)} />),
      head: [
        `<title>${escapeHtml(words.title)}</title>`,
        '<meta name="robots" content="noindex" />',
        '<meta name="color-scheme" content="light dark" />',
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
      ].join('\n    '),
    }
  })
  return { pages, files: { ...shared.files, ...artFiles() }, images: [...shared.images, ...images], notFound, words }
}

/**
 * A page of a page-only build, which no server of ours serves: its slots hold what it was built
 * with (the note; the App Store alone), as the server would fill them without a count or PLAY_STORE_URL.
 */
export function withoutServer(html: string, words: LandingWords): string {
  const fill: Record<string, string> = {
    [WAITING_SLOT]: escapeHtml(words.note),
    [STORE_SLOTS.eyebrow]: escapeHtml(words.stores.eyebrow.ios),
    [STORE_SLOTS.subtext]: escapeHtml(words.stores.subtext.ios),
    [STORE_SLOTS.playBadge]: '',
    [STORE_SLOTS.systems]: APP_SYSTEMS.ios,
  }
  return html.replace(new RegExp(Object.keys(fill).join('|'), 'g'), (slot) => fill[slot] ?? slot)
}

export { DEFAULT_LOCALE }
