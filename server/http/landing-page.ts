// The landing page as each visitor gets it: the prerendered HTML with a signed timestamp of this
// second in its no-script form (docs/decisions/003-no-script-form.md) and, in the hero, how many
// confirmed sign-ups wait (docs/decisions/015-growth.md), compressed once a second, not once a
// visit. Sending it counts a view.
import { Negotiator } from '@fastify/accept-negotiator'
import fastifyCompress from '@fastify/compress'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { INVITE_PARAM, type LandingWords, WAITING_SHOWN_FROM } from '../../contract/growth.js'
import { APP_SYSTEMS, FORM_TOKEN_SLOT, STORE_SLOTS, WAITING_SLOT } from '../../contract/paths.js'
import { publicFigure } from '../../contract/public-figures.js'
import { UTM_COLUMNS } from '../../contract/waitlist.js'
import { warnAtMostOnce } from '../growth/log-once.js'
import { figureKey } from '../growth/public-figures.js'
import { perAddress, readdressed } from './site-address.js'

/** Where the built page's form holds the token (its hidden field's value attribute). */
const TOKEN = `value="${FORM_TOKEN_SLOT}"`
const SLOTS = new RegExp(`(${[TOKEN, WAITING_SLOT, ...Object.values(STORE_SLOTS)].join('|')})`)

/** The built page cut at its slots: text, slot, text, slot, text. */
export interface LandingTemplate {
  parts: string[]
}

/**
 * The page cut at its slots; undefined when there is no build, or a build for another backend
 * (no form token: a Supabase project has no /join), which is served as the file it is.
 */
export function readLandingTemplate(root: string): LandingTemplate | undefined {
  const path = join(root, 'index.html')
  if (!existsSync(path)) return undefined
  const parts = readFileSync(path, 'utf8').split(SLOTS)
  const slots = parts.filter((_, i) => i % 2 === 1)
  if (!slots.includes(TOKEN)) return undefined
  for (const slot of new Set(slots)) {
    if (slots.filter((s) => s === slot).length !== 1) throw new Error(`${path}: expected one ${slot} slot`)
  }
  return { parts }
}

/** The words of a page whose build left none (a warning says so): its slots say nothing. */
export const noWords = (lang: string): LandingWords => ({
  lang,
  note: '',
  waiting: { other: '{{count}}' },
  stores: { eyebrow: { ios: '', both: '' }, subtext: { ios: '', both: '' }, playBadge: '' },
})

export function readLandingWords(path: string): Record<string, LandingWords> {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, LandingWords>) : {}
}

const escapeHtml = (text: string) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c)

/**
 * The hero's line: how many wait, as a public figure (docs/public-figures.md: the band, here the
 * hundred, once the total's secret offset is taken off), from WAITING_SHOWN_FROM on; before that,
 * or with no count, the note. A count that moved by one would tell who just joined.
 */
export function waitingLine(words: Pick<LandingWords, 'lang' | 'note' | 'waiting'>, count: number | null, offset: number | null): string {
  const shown = count === null || offset === null ? null : publicFigure(count, offset)
  if (shown === null || shown < WAITING_SHOWN_FROM) return escapeHtml(words.note)
  const sentence = words.waiting[new Intl.PluralRules(words.lang).select(shown)] ?? words.waiting.other
  return escapeHtml(sentence.replace('{{count}}', new Intl.NumberFormat(words.lang).format(shown)))
}

/**
 * What the page says of the stores, the same for every visit: the App Store alone, or Google Play
 * beside it (STORE_SLOTS). Text escaped; the badge is the build's HTML.
 */
export function storeSlots(words: LandingWords, playStore: boolean): Record<string, string> {
  const { eyebrow, subtext, playBadge } = words.stores
  const side = playStore ? 'both' : 'ios'
  return {
    [STORE_SLOTS.eyebrow]: escapeHtml(eyebrow[side]),
    [STORE_SLOTS.subtext]: escapeHtml(subtext[side]),
    [STORE_SLOTS.playBadge]: playStore ? playBadge : '',
    [STORE_SLOTS.systems]: APP_SYSTEMS[side],
  }
}

/** One language's landing page: where it is served, its template and the words of its slot. */
export interface LandingPage {
  path: string
  template: LandingTemplate
  words: LandingWords
}

// Brotli at 5 is about as small as gzip at 9; gzip, for the few clients without brotli, at 9: 0.1 KB
// less for a fraction of a millisecond. The same levels for the page and for what the compression
// plugin sends (the budgets in tests/browser/budgets.test.ts measure the page as sent).
const BROTLI_QUALITY = 5
const GZIP_LEVEL = constants.Z_BEST_COMPRESSION
const compressHtml = (encoding: Encoding, html: string): Promise<Buffer> =>
  encoding === 'br'
    ? promisify(brotliCompress)(html, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
    : promisify(gzip)(html, { level: GZIP_LEVEL })
type Encoding = 'br' | 'gzip'
const encodings = new Negotiator<Encoding>({ supportedValues: ['br', 'gzip'] })

/** The encoding the compression plugin would choose: `*` and `x-gzip` read as gzip; none without the header. */
function encodingFor(request: FastifyRequest): Encoding | null {
  const accepted = request.headers['accept-encoding']
  if (accepted === undefined || request.headers['x-no-compression'] !== undefined) return null
  return encodings.negotiate(accepted.toLowerCase().replace(/\*|x-gzip/g, 'gzip'))
}

/**
 * The page of one second: every visit within the same second of the clock, with the same hero
 * line, gets the same token (issued at the second's first visit) and the same compressed bytes.
 * Compressing 97 KB for each visit cost about 2 ms of CPU a visit: 400 pages a second at most
 * (docs/performance.md, issue 23). The token's age is what the form checks, and a shared token is
 * still at most one second older than the visit; a token is no secret (it is in the page).
 */
interface PageOfTheSecond {
  second: number
  waiting: string
  html: string
  compressed: Partial<Record<Encoding, Promise<Buffer>>>
}

/** What a language switch carries from one landing page to another: the inviter's code and the campaign. */
const CARRIED_PARAMS = [INVITE_PARAM, ...UTM_COLUMNS]

/**
 * A switch of language without a script: the language link is bare (`/de/`), and the Referer is
 * the landing page the visitor came from, with its query. When that page is one of ours on this
 * host and its query carries an invite or a campaign, the address to send the visitor to instead
 * (`/de/?invite=…`), so the sign-up keeps both; otherwise undefined. With a script, the links
 * carry the query themselves (web/lib/language-links.ts). Crawlers send no such Referer.
 */
export function switchedWithQuery(request: FastifyRequest, path: string, landingPaths: ReadonlySet<string>): string | undefined {
  const referer = request.headers.referer
  if (request.url.includes('?') || referer === undefined || !URL.canParse(referer)) return undefined
  const from = new URL(referer)
  if (from.host !== request.headers.host || !landingPaths.has(from.pathname.replace(/index\.html$/, ''))) return undefined
  const carried = new URLSearchParams()
  for (const name of CARRIED_PARAMS) {
    const value = from.searchParams.get(name)
    if (value !== null) carried.set(name, value)
  }
  return carried.size === 0 ? undefined : `${path}?${carried}`
}

/**
 * `built`: the address the build wrote into the pages, replaced by the one the server runs with;
 * `playStore`: whether the server has PLAY_STORE_URL (the page names Google Play too).
 */
export async function landingPage(
  app: FastifyInstance,
  { pages, built, playStore }: { pages: LandingPage[]; built: string | undefined; playStore: boolean },
) {
  // Said once the server listens: a start that fails says only why it failed.
  if (app.formTokens.ephemeral) {
    app.addHook('onListen', async () =>
      app.log.info('FORM_SECRET is not set: no-script forms sent before a restart will be asked to resend'),
    )
  }
  // Static files and every other answer of this scope; the landing page compresses its own copy.
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    zlibOptions: { level: GZIP_LEVEL },
  })
  const landingPaths = new Set(pages.map((page) => page.path))
  // Without the offset (the store down before it was first read) the count is not shown: the note is.
  const warn = warnAtMostOnce(app.log)
  const waitingOffset = () =>
    app.launch.figures.offsets().then(
      (offsets) => offsets(figureKey.waiting),
      (error: unknown) => {
        warn({ err: error }, 'public figures: the offsets were not read (the page shows its note)')
        return null
      },
    )
  for (const { path, template, words } of pages) {
    // The template with the address the server runs with in the build's place (site-address.ts),
    // and the stores it has named.
    const stores = storeSlots(words, playStore)
    const partsFor = perAddress((address) =>
      template.parts.map((part, i) => (i % 2 === 1 ? (stores[part] ?? part) : readdressed(part, built, address))),
    )
    let current: PageOfTheSecond | undefined
    const pageNow = async (): Promise<PageOfTheSecond> => {
      const now = Date.now()
      const second = Math.floor(now / 1000)
      const waiting = waitingLine(words, await app.waiting.current(), await waitingOffset())
      if (current?.second === second && current.waiting === waiting) return current
      const filled: Record<string, string> = { [TOKEN]: `value="${app.formTokens.issue(now)}"`, [WAITING_SLOT]: waiting }
      const html = partsFor(app.siteUrl())
        .map((part, i) => (i % 2 === 1 ? (filled[part] ?? part) : part))
        .join('')
      current = { second, waiting, html, compressed: {} }
      return current
    }
    const send = async (request: FastifyRequest, reply: FastifyReply) => {
      const switched = switchedWithQuery(request, path, landingPaths)
      // It depends on the Referer: no cache keeps it.
      if (switched !== undefined) return reply.header('cache-control', 'no-store').redirect(switched, 302)
      app.views.record(request)
      const page = await pageNow()
      reply
        .type('text/html; charset=utf-8')
        // No validator: a revalidated copy would carry an old token.
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding')
      const encoding = encodingFor(request)
      if (encoding === null) return reply.send(page.html)
      // Compressed in the thread pool, once per second and encoding; the plugin leaves an encoded answer alone.
      // A failed compression is not kept: the next visit of the second tries again.
      const body = await (page.compressed[encoding] ??= compressHtml(encoding, page.html).catch((error: unknown) => {
        page.compressed[encoding] = undefined
        throw error
      }))
      return reply.header('content-encoding', encoding).send(body)
    }
    app.get(path, send)
    app.get(`${path}index.html`, send)
    // `/de` is the German page too: one address for it, with the slash. The query goes along: an
    // invite link or a campaign's address typed without the slash keeps its invite and utm_*.
    if (path !== '/')
      app.get(path.slice(0, -1), (request, reply) => {
        const at = request.url.indexOf('?')
        const query = at === -1 ? '' : request.url.slice(at + 1)
        return reply.redirect(query ? `${path}?${query}` : path, 301)
      })
  }
}
