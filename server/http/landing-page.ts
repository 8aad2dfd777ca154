// The landing page as each visitor gets it: the prerendered HTML with a fresh signed timestamp in
// its no-script form (docs/decisions/003-no-script-form.md) and, in the hero, how many confirmed
// sign-ups wait (docs/decisions/015-growth.md), compressed as it is sent. Sending it counts a view.
import fastifyCompress from '@fastify/compress'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { constants } from 'node:zlib'
import { type LandingWords, WAITING_SHOWN_FROM } from '../../contract/growth.js'
import { FORM_TOKEN_SLOT, WAITING_SLOT } from '../../contract/paths.js'

/** Where the built page's form holds the token (its hidden field's value attribute). */
const TOKEN = `value="${FORM_TOKEN_SLOT}"`
const SLOTS = new RegExp(`(${TOKEN}|${WAITING_SLOT})`)

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

export function readLandingWords(path: string): Record<string, LandingWords> {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, LandingWords>) : {}
}

const escapeHtml = (text: string) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c)

/**
 * The hero's line: from WAITING_SHOWN_FROM confirmed sign-ups, how many wait, rounded down to the
 * ten (a count that moves by one would tell who just joined); before that, or with no count, the note.
 */
export function waitingLine(words: LandingWords, count: number | null): string {
  if (count === null || count < WAITING_SHOWN_FROM) return escapeHtml(words.note)
  const shown = Math.floor(count / 10) * 10
  const sentence = words.waiting[new Intl.PluralRules(words.lang).select(shown)] ?? words.waiting.other
  return escapeHtml(sentence.replace('{{count}}', new Intl.NumberFormat(words.lang).format(shown)))
}

/** One language's landing page: where it is served, its template and the words of its slot. */
export interface LandingPage {
  path: string
  template: LandingTemplate
  words: LandingWords
}

export async function landingPage(app: FastifyInstance, { pages }: { pages: LandingPage[] }) {
  // Said once the server listens: a start that fails says only why it failed.
  if (app.formTokens.ephemeral) {
    app.addHook('onListen', async () =>
      app.log.info('FORM_SECRET is not set: no-script forms sent before a restart will be asked to resend'),
    )
  }
  // Brotli at 5 is about as small as gzip at 9 and fast enough to run per visit (~1 ms here);
  // gzip, for the few clients without brotli, at 9: 0.1 KB less for a fraction of a millisecond.
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
    zlibOptions: { level: constants.Z_BEST_COMPRESSION },
  })
  for (const { path, template, words } of pages) {
    const send = async (request: FastifyRequest, reply: FastifyReply) => {
      app.views.record(request)
      const filled: Record<string, string> = {
        [TOKEN]: `value="${app.formTokens.issue()}"`,
        [WAITING_SLOT]: waitingLine(words, await app.waiting.current()),
      }
      return (
        reply
          .type('text/html; charset=utf-8')
          // No validator: a revalidated copy would carry an old token.
          .header('cache-control', 'no-cache')
          .send(template.parts.map((part, i) => (i % 2 === 1 ? (filled[part] ?? part) : part)).join(''))
      )
    }
    app.get(path, send)
    app.get(`${path}index.html`, send)
    // `/de` is the German page too: one address for it, with the slash.
    if (path !== '/') app.get(path.slice(0, -1), (_request, reply) => reply.redirect(path, 301))
  }
}
