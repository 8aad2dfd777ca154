// Whoever reads the logs must not be able to become an operator or open a visitor's page: the
// server process, logging everything it can (LOG_LEVEL=trace), is sent a marker in every place a
// secret travels (each secret-bearing path by GET and POST, unknown paths, query values and names,
// headers, JSON, form and malformed bodies), and real secrets (the first owner's setup link, a
// visitor's page); then everything it wrote, stdout and stderr, is searched for them.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnServer, type ServerProcess } from '../support/process'
import { tempSqlitePath } from '../support/server'

/** Token-shaped (43 characters of base64url), so every route looks it up as it would a real one. */
const MARKER = 'LOGMARK' + 'q7Zx_9-Kp'.repeat(4)
const SHORT_MARKER = 'Lm4rk3r'

let server: ServerProcess
const mailDir = mkdtempSync(join(tmpdir(), 'kennect-log-mail-'))
const db = tempSqlitePath()

beforeAll(async () => {
  server = await spawnServer({ SQLITE_PATH: db.path, MAIL_DIR: mailDir, LOG_LEVEL: 'trace', ADMIN_TOKEN: 'x'.repeat(32) })
})
afterAll(async () => {
  await server?.stop('SIGTERM')
  rmSync(mailDir, { recursive: true, force: true })
  db.cleanup()
})

const send = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { redirect: 'manual', ...init }).then((r) => r.text())

describe('the logs hold no secret', () => {
  it('not one sent in a path, a query, a header or a body, whatever the route', async () => {
    const paths = [
      `/me/${MARKER}`,
      `/me/${MARKER}/unsubscribe`,
      `/me/${MARKER}/data`,
      `/admin/sign-in/${MARKER}`,
      `/admin/setup/${MARKER}`,
      `/admin/api/setup/${MARKER}`,
      `/admin/api/setup/${MARKER}/options`,
      `/admin/sign-in/${MARKER}/more`,
      `/admin/api/${MARKER}`,
      `/${MARKER}`,
      `/assets/${MARKER}`,
      `/de/${MARKER}`,
      `/me/${SHORT_MARKER}`,
      // A link pasted with what followed it in a sentence, or an extension a mail client added.
      ...[`${MARKER}.`, `${MARKER})`, `${MARKER}.html`, `(${MARKER}),`, `${MARKER}%2E`].flatMap((word) => [
        `/admin/setup/${word}`,
        `/admin/sign-in/${word}`,
        `/admin/api/setup/${word}`,
        `/me/${word}`,
        `/${word}`,
        `/assets/${word}`,
      ]),
    ]
    for (const path of paths) {
      await send(path)
      await send(`${path}?token=${MARKER}&${MARKER}=1&${MARKER}.=1&(${MARKER})=1`)
      await send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ token: MARKER }),
      })
      await send(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${MARKER}` })
    }
    const headers: Record<string, string>[] = [
      { authorization: `Bearer ${MARKER}` },
      { cookie: `kennect_session=${MARKER}` },
      { cookie: `__Host-kennect_session=${MARKER}` },
      { apikey: MARKER },
      { 'x-forwarded-for': MARKER },
      { referer: `https://example.com/${MARKER}` },
    ]
    for (const header of headers) {
      await send('/admin/api/stats', { headers: header })
      await send('/admin/api/session', { headers: header })
      await send('/rest/v1/waitlist', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...header },
        body: '{"email":"a@example.com"}',
      })
    }
    // Bodies the parsers refuse: their errors must not quote what they were given.
    for (const [type, body] of [
      ['application/json', `{"email": ${MARKER}}`],
      ['application/json', `${MARKER}`],
      ['application/json', `{"email":"${MARKER}@example.com"`],
      ['application/x-www-form-urlencoded', `email=%${MARKER}`],
      ['text/plain', MARKER],
    ] as const) {
      await send('/rest/v1/waitlist', { method: 'POST', headers: { 'content-type': type }, body })
      await send('/admin/api/session/link', { method: 'POST', headers: { 'content-type': type }, body })
      await send(`/admin/api/setup/${MARKER}`, { method: 'POST', headers: { 'content-type': type }, body })
      await send('/join', { method: 'POST', headers: { 'content-type': type }, body })
    }
    await flushed()
    const output = server.output()
    expect(output).toContain('"path":"/admin/sign-in/[token]"') // the rule at work, not silence
    expect(output).toContain('"path":"/me/[token]"')
    expect(findings(output, MARKER)).toEqual([])
    expect(findings(output, SHORT_MARKER)).toEqual([])
  })

  it("not a real one: the first owner's setup link, outside the one line that announces it, nor a visitor's page", async () => {
    const setup = /\/admin\/setup\/([A-Za-z0-9_-]{43})/.exec(server.output())?.[1]
    expect(setup).toBeDefined()
    const token = setup ?? ''
    await send(`/admin/setup/${token}`)
    for (const after of ['.', ')', '.html', ',', '%2E']) {
      await send(`/admin/setup/${token}${after}`)
      await send(`/admin/api/setup/${token}${after}`)
      await send(`/?${token}${after}=1`)
    }
    await send(`/admin/api/setup/${token}`)
    await send(`/admin/api/setup/${token}/options`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: 'owner@example.com', name: 'Owner' }),
    })

    // A visitor's page: the confirmation mail's link.
    await send('/rest/v1/waitlist', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"reader@example.com"}',
    })
    const visitor = await visitorToken()
    await send(`/me/${visitor}`)
    await send(`/me/${visitor}/data`)
    await send(`/me/${visitor}/unsubscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    await flushed()
    const output = server.output()
    const announcing = output.split('\n').filter((line) => line.includes(token))
    expect(announcing).toHaveLength(1)
    expect(announcing[0]).toMatch(/setup/i)
    expect(announcing[0]).not.toMatch(/^\{/) // the announcement, not a JSON log line
    expect(findings(output, visitor)).toEqual([])
  })
})

// Issue 39, item 16: `npm start` printed two of Node 24's ExperimentalWarning lines at the first
// passkey registration (@simplewebauthn/server asking Web Crypto about ML-DSA). Node 26 prints none.
describe('npm start', () => {
  it('prints only the server’s own lines when the first passkey registration begins', async () => {
    const started = spawn(process.execPath, ['scripts/start.mjs'], {
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', SQLITE_PATH: db.path.replace(/\.db$/, '-start.db'), MAIL_DIR: mailDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = once(started, 'exit')
    try {
      let url: string | undefined
      for (let i = 0; i < 400 && !url && started.exitCode === null; i++) {
        url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1]
        if (!url) await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(url, output).toBeDefined()
      const token = /\/admin\/setup\/([A-Za-z0-9_-]{43})/.exec(output)?.[1] ?? ''
      const options = await fetch(`${url}/admin/api/setup/${token}/options`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url ?? '' },
        body: JSON.stringify({ email: 'owner@example.com', name: 'Owner' }),
      })
      expect(options.status).toBe(200)
      expect(((await options.json()) as { options?: { challenge?: string } }).options?.challenge).toBeTruthy()
      // A line the server writes after the registration's, so anything printed before it is in.
      await fetch(`${url}/healthz?after-registration=1`)
      for (let i = 0; i < 100 && !output.includes('after-registration'); i++) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(output).toContain('after-registration')
      expect(output).not.toContain('Warning')
    } finally {
      started.kill('SIGTERM')
      await exited
    }
  })
})

/** The lines holding the secret, as it was sent or percent-encoded. */
function findings(output: string, secret: string): string[] {
  return output.split('\n').filter((line) => line.includes(secret) || line.includes(encodeURIComponent(secret)))
}

/** The log is written by a thread of its own: a marker request answered last shows it has caught up. */
async function flushed() {
  const id = `flush${Date.now()}`
  await send(`/healthz?${id}=1`)
  for (let i = 0; i < 100 && !server.output().includes(id); i++) await new Promise((resolve) => setTimeout(resolve, 20))
}

async function visitorToken(): Promise<string> {
  for (let i = 0; i < 100; i++) {
    for (const file of readdirSync(mailDir).filter((name) => name.endsWith('.eml'))) {
      const token = /\/me\/([A-Za-z0-9_-]{20,})/.exec(readFileSync(join(mailDir, file), 'utf8'))?.[1]
      if (token) return token
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('no confirmation mail with a visitor link')
}
