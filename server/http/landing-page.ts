// The landing page as each visitor gets it: the prerendered HTML with a fresh signed timestamp in
// its no-script form (docs/decisions/003-no-script-form.md), compressed as it is sent.
import fastifyCompress from '@fastify/compress'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { constants } from 'node:zlib'
import { FORM_TOKEN_SLOT } from '../../contract/paths.js'

/** Where the built page's form holds the slot (its hidden field's value attribute). */
const SLOT = `value="${FORM_TOKEN_SLOT}"`

/** The built page cut at its form token's slot; undefined when there is no build or no slot. */
export interface LandingTemplate {
  before: string
  after: string
}

export function readLandingTemplate(root: string): LandingTemplate | undefined {
  const path = join(root, 'index.html')
  if (!existsSync(path)) return undefined
  const [before, after, ...more] = readFileSync(path, 'utf8').split(SLOT)
  return before !== undefined && after !== undefined && more.length === 0 ? { before, after } : undefined
}

export async function landingPage(app: FastifyInstance, { template }: { template: LandingTemplate }) {
  // Said once the server listens: a start that fails says only why it failed.
  if (app.formTokens.ephemeral) {
    app.addHook('onListen', async () =>
      app.log.info('FORM_SECRET is not set: no-script forms sent before a restart will be asked to resend'),
    )
  }
  // Brotli at 5 is about as small as gzip at 9 and fast enough to run per visit (~1 ms here).
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  })
  const send = (_request: unknown, reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      // No validator: a revalidated copy would carry an old token.
      .header('cache-control', 'no-cache')
      .send(`${template.before}value="${app.formTokens.issue()}"${template.after}`)
  app.get('/', send)
  app.get('/index.html', send)
}
