import { StrictMode } from 'react'
import type { LandingWords } from '../contract/growth'
import { renderToString } from 'react-dom/server'
import { App } from './app'
import { artFiles } from './components/dog-art'
import { NotFound } from './not-found'
import { content } from './content'
import { escapeHtml, shareKit, type ShareImage } from './share'
import { site } from './site'

export interface Prerendered {
  html: string
  lang: string
  /** Everything the <head> says of the page: title, description, share tags, icons. */
  head: string
  /** Files the build writes beside the page (robots.txt, sitemap.xml, manifest, favicon, the dogs below the fold). */
  files: Record<string, string>
  /** Images the build renders from SVG to PNG (icons, the link preview). */
  images: ShareImage[]
  /** The page for unknown addresses (404.html): no script, not for search engines. */
  notFound: { html: string; head: string }
  /** What the server says in the page's slot (dist/landing.json), keyed by the page's path. */
  words: Record<string, LandingWords>
}

/** Used only by the build (scripts/build.mjs): the page as HTML, its head and its files. */
export function render(): Prerendered {
  const html = renderToString(
    <StrictMode>
      <App />
    </StrictMode>,
  )
  const share = shareKit(site, content, new Date())
  const head = [
    `<title>${escapeHtml(content.meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(content.meta.description)}" />`,
    // The first paint waits until the parser has read the whole hero (to the section after it):
    // never a half-parsed hero painted, then moved as the rest arrives (docs/performance.md).
    `<link rel="expect" href="#${escapeHtml(content.about.id)}" blocking="render" />`,
    share.head,
  ].join('\n    ')
  const notFound = {
    html: renderToString(<NotFound content={content.notFound} brand={site.productName} />),
    head: [
      `<title>${escapeHtml(content.notFound.title)}</title>`,
      '<meta name="robots" content="noindex" />',
      '<meta name="color-scheme" content="light dark" />',
      '<link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
    ].join('\n    '),
  }
  const words = { '/': { lang: content.meta.lang, note: content.hero.note, waiting: content.hero.waiting } }
  return {
    html,
    lang: escapeHtml(content.meta.lang),
    head,
    files: { ...share.files, ...artFiles() },
    images: share.images,
    notFound,
    words,
  }
}
