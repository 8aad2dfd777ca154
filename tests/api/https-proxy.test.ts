// The README's https proxy, run here (issue 30, item 15): nginx with docs/operating/nginx.conf as
// written (only its addresses, ports and certificate swapped for the test's) in front of the
// server, with a certificate of the test's own. Through it: the page names its https address,
// the security headers arrive, plain http is sent to https, a sign-up is taken, and a mail
// provider's big batch of bounces arrives whole. Skipped where nginx is not installed (.ci/run installs it).
import Database from 'better-sqlite3'
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createSign, generateKeyPairSync } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selfSigned } from '../support/certs'
import { freePort } from '../support/ports'
import { type ServerProcess, spawnServer } from '../support/process'
import { tempSqlitePath } from '../support/server'

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path))

/** SendGrid's key pair: the public half as SendGrid shows it (base64 of its DER form). */
const sendgrid = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const SENDGRID_KEY = sendgrid.publicKey.export({ format: 'der', type: 'spki' }).toString('base64')

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

describe.skipIf(!NGINX)('behind the README’s nginx, over https', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kennect-proxy-'))
  const db = tempSqlitePath()
  let server: ServerProcess
  let nginx: ChildProcess
  let origin = ''
  let plainPort = 0
  let ca: Buffer

  /** A request to the proxy, trusting the test's certificate only. */
  const fetchTls = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const headers = { ...init.headers, ...(init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) }) }
      const call = request(`${origin}${path}`, { method: init.method ?? 'GET', headers, ca }, (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
      })
      call.on('error', reject)
      call.end(init.body)
    })

  beforeAll(async () => {
    const own = selfSigned(dir, 'localhost', 'localhost', 'localhost')
    ca = readFileSync(own.cert)
    const tlsPort = await freePort()
    plainPort = await freePort()
    origin = `https://localhost:${tlsPort}`
    server = await spawnServer({
      SQLITE_PATH: db.path,
      SITE_URL: origin,
      TRUST_PROXY: 'loopback',
      SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_KEY,
    })
    const upstream = new URL(server.url).host
    // The README's file, its addresses swapped for the test's.
    const site = readFileSync('docs/operating/nginx.conf', 'utf8')
      .replaceAll('127.0.0.1:3000', upstream)
      .replace('listen 80;', `listen 127.0.0.1:${plainPort};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${tlsPort} ssl http2;`)
      .replaceAll('server_name kennect.app;', 'server_name localhost;')
      .replace('/etc/letsencrypt/live/kennect.app/fullchain.pem', own.cert)
      .replace('/etc/letsencrypt/live/kennect.app/privkey.pem', own.key)
    expect(site).toContain(upstream)
    writeFileSync(join(dir, 'kennect.conf'), site)
    for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp))
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        // As root, its workers would run as nobody, who cannot enter the test's private folder.
        process.getuid?.() === 0 ? 'user root;' : '',
        'daemon off;',
        'worker_processes 1;',
        `pid ${join(dir, 'nginx.pid')};`,
        `error_log ${join(dir, 'error.log')} warn;`,
        'events {}',
        'http {',
        '  access_log off;',
        ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (temp) => `  ${temp === 'body' ? 'client_body' : temp}_temp_path ${join(dir, temp)};`,
        ),
        `  include ${join(dir, 'kennect.conf')};`,
        '}',
      ].join('\n'),
    )
    nginx = spawn(NGINX ?? 'nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] })
    let errors = ''
    nginx.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    for (let i = 0; i < 100; i++) {
      const up = await fetchTls('/health').then(
        () => true,
        () => false,
      )
      if (up) return
      if (nginx.exitCode !== null) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(
      `nginx did not start: ${errors}${existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''}`,
    )
  })

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      nginx.kill('SIGQUIT')
      await new Promise((resolve) => nginx.once('exit', resolve))
    }
    await server?.stop()
    db.cleanup()
    rmSync(dir, { recursive: true, force: true })
  })

  it('serves the page that names its https address, with the security headers', async () => {
    const page = await fetchTls('/', { headers: { 'accept-encoding': 'identity' } })
    expect(page.status).toBe(200)
    expect(page.body).toContain(`<link rel="canonical" href="${origin}/"`)
    expect(page.headers['strict-transport-security']).toMatch(/max-age=\d+/)
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    // The plain http address sends browsers to https.
    const plain = await fetch(`http://127.0.0.1:${plainPort}/de/`, { redirect: 'manual' })
    expect(plain.status).toBe(301)
    expect(plain.headers.get('location')).toBe(`https://127.0.0.1/de/`)
  })

  it('takes a sign-up through it', async () => {
    const joined = await fetchTls('/rest/v1/waitlist', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: 'proxied@example.com' }),
    })
    expect(joined.status).toBe(201)
    // Stored.
    const stored = spawnSync(process.execPath, ['scripts/waitlist.mjs', 'count'], { env: { PATH: process.env.PATH, SQLITE_PATH: db.path } })
    expect(stored.stdout.toString().trim()).toBe('1')
  })

  // Issue 39, item 5: the file's 64 KB limit answered 413 to a signed 110 KB batch the server takes.
  it('passes a mail provider’s big batch on whole: a signed 700 KB SendGrid batch is taken and its events recorded', async () => {
    // A send's deferrals, as SendGrid batches them (up to 768 KB).
    const events = Array.from({ length: 1800 }, (_, i) => ({
      email: `reader${i}@example.com`,
      timestamp: 1795000000 + i,
      'smtp-id': `<14c5d75ce93.dfd.64b469.filter0001.16648.${i}@ismtpd-555>`,
      event: 'deferred',
      category: 'launch',
      sg_event_id: `sg-deferred-${i}`,
      sg_message_id: `14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.${i}`,
      attempt: '2',
      response: '451 4.7.1 Greylisted, please try again in 300 seconds; see https://mail.example/greylisting for more',
    }))
    const body = JSON.stringify(events)
    expect(Buffer.byteLength(body)).toBeGreaterThan(700 * 1024)
    expect(Buffer.byteLength(body)).toBeLessThan(768 * 1024)
    const timestamp = String(Math.floor(Date.now() / 1000))
    const signature = createSign('sha256')
      .update(timestamp + body)
      .sign(sendgrid.privateKey, 'base64')
    const answer = await fetchTls('/hooks/mail/sendgrid', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-twilio-email-event-webhook-signature': signature,
        'x-twilio-email-event-webhook-timestamp': timestamp,
      },
      body,
    })
    expect(answer.status, answer.body.slice(0, 200)).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({ recorded: events.length })
    const stored = new Database(db.path, { readonly: true })
    const recorded = stored.prepare("SELECT count(*) FROM mail_events WHERE source = 'sendgrid' AND type = 'soft-bounce'").pluck().get()
    stored.close()
    expect(recorded).toBe(events.length)
  })
})
