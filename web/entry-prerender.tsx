import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { App } from './app'
import { content } from './content'
import { escapeHtml, shareKit, type ShareImage } from './share'
import { site } from './site'

export interface Prerendered {
  html: string
  lang: string
  /** Everything the <head> says of the page: title, description, share tags, icons. */
  head: string
  /** Files the build writes beside the page (robots.txt, sitemap.xml, manifest, favicon). */
  files: Record<string, string>
  /** Images the build renders from SVG to PNG (icons, the link preview). */
  images: ShareImage[]
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
    share.head,
  ].join('\n    ')
  return { html, lang: escapeHtml(content.meta.lang), head, files: share.files, images: share.images }
}
