// The visitor's pages as HTML: the build's render module (dist/visitor/render.js, made from web/)
// inside the site's shell (its CSS, no script), loaded once at start.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Locale } from '../../contract/locales.js'
import type { AppPageView } from '../../contract/app.js'
import type { AppLinkGone, RenderedPage, VisitorGone, VisitorRender, VisitorView } from '../../contract/visitor.js'
import type { EmbedRender } from '../../contract/partners.js'

export interface VisitorPages {
  site: VisitorRender['site']
  page(view: VisitorView, error?: 'invalid-profile'): string
  gone(why: VisitorGone, locale: Locale): string
  /** An app link's page (/app/<code>), and its answers when it leads nowhere: the same shell. */
  app(view: AppPageView): string
  appGone(why: AppLinkGone, locale: Locale): string
  /** A partner's embed: its words, its meter's, and the iframe form's page (its body and stylesheet). */
  embed: EmbedRender
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c)

/** The pages, or undefined when this build has none (a page-only build). */
export async function loadVisitorPages(dir: string): Promise<VisitorPages | undefined> {
  const modulePath = join(dir, 'render.js')
  const shellPath = join(dir, 'shell.html')
  if (!existsSync(modulePath) || !existsSync(shellPath)) return undefined
  // The module's shape is the contract's VisitorRender: it is our own build's, made from web/.
  const { visitor, embed } = (await import(pathToFileURL(modulePath).href)) as { visitor: VisitorRender; embed: EmbedRender }
  const shell = readFileSync(shellPath, 'utf8')
  const document = ({ title, html }: RenderedPage, lang: Locale) =>
    shell
      .replace('<!--app-lang-->', lang)
      .replace('<!--app-head-->', () =>
        [
          `<title>${escape(title)}</title>`,
          // Not for search engines; and a link's token never leaves in a Referer.
          '<meta name="robots" content="noindex, nofollow" />',
          '<meta name="referrer" content="no-referrer" />',
          '<meta name="color-scheme" content="light dark" />',
          '<link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
        ].join('\n    '),
      )
      .replace('<!--app-html-->', () => html)
  return {
    site: visitor.site,
    page: (view, error) => document(visitor.page(view, error), view.locale),
    gone: (why, locale) => document(visitor.gone(why, locale), locale),
    app: (view) => document(visitor.app(view), view.locale),
    appGone: (why, locale) => document(visitor.appGone(why, locale), locale),
    embed,
  }
}
