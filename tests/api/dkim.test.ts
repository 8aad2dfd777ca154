// DKIM (docs/deployment.md): a sent mail carries a signature that a DKIM verifier accepts against the
// record `mail dns` prints (the resolver is a stub of the test's own: nothing leaves the machine),
// covering both unsubscribe headers (RFC 8058 §4), with an RSA key and with an Ed25519 key (RFC 8463);
// any other key is refused at start; the DMARC record starts at p=none and no TXT string is longer
// than DNS allows.
import { execFile } from 'node:child_process'
import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { dkimVerify } from 'mailauth/lib/dkim/verify'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/config'
import { pageTokenFor } from '../support/page-links'
import { builtCli, runToExit } from '../support/process'
import { startServer, type TestServer } from '../support/server'
import { startSmtp, type TestSmtp } from '../support/smtp'

const run = promisify(execFile)
const MAIL_FROM = 'Kennect <hello@kennect.test>'
const pemOf = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString()
/** The variables for a key, its PEM in one line as an environment holds it. */
const dkimEnv = (key: KeyObject, selector: string) => ({
  DKIM_PRIVATE_KEY: pemOf(key).replace(/\n/g, '\\n'),
  DKIM_SELECTOR: selector,
  MAIL_FROM,
})
const RSA = dkimEnv(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'kennect1')
const ED25519 = dkimEnv(generateKeyPairSync('ed25519').privateKey, 'kennect2')

/** The TXT records `mail dns` printed, by name: each the list of its quoted strings, as DNS hands them over. */
function recordsOf(output: string): Map<string, string[]> {
  return new Map(
    [...output.matchAll(/^(\S+)\. IN TXT ((?:"[^"]*" ?)+)$/gm)].map((match) => [
      match[1] ?? '',
      [...(match[2] ?? '').matchAll(/"([^"]*)"/g)].map((string) => string[1] ?? ''),
    ]),
  )
}

/** A DNS lookup answered from those records only. */
const resolverOf = (records: Map<string, string[]>) => async (name: string, type: string) => {
  const strings = records.get(name.replace(/\.$/, ''))
  if (type !== 'TXT' || !strings) throw Object.assign(new Error(`no ${type} ${name}`), { code: 'ENOTFOUND' })
  return [strings]
}

async function mailDns(server: TestServer, env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, [builtCli(), 'mail', 'dns'], {
    env: { PATH: process.env.PATH, ...env, SQLITE_PATH: server.config.SQLITE_PATH },
  })
  return stdout
}

async function signUp(server: TestServer, email: string): Promise<void> {
  const answer = await fetch(`${server.url}/rest/v1/waitlist`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  })
  expect(answer.status).toBe(201)
}

/** The header fields a passing signature covers (its h=), in lower case. */
const signedFields = (keys: string | undefined) => (keys ?? '').toLowerCase().split(/\s*:\s*/)

describe('DKIM', () => {
  let server: TestServer | undefined
  let smtp: TestSmtp | undefined
  afterEach(async () => {
    await server?.close()
    await smtp?.stop()
    server = undefined
    smtp = undefined
  })

  it('signs mail sent over SMTP with an RSA key: it passes against the printed record and covers both unsubscribe headers', async () => {
    smtp = await startSmtp()
    server = await startServer({ ...RSA, SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' })
    const records = recordsOf(await mailDns(server, RSA))
    expect(records.get('kennect1._domainkey.kennect.test')?.join('')).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/)
    expect(records.get('kennect.test')?.join('')).toMatch(/^v=spf1 /)

    await signUp(server, 'ada@example.com')
    const [mail] = await smtp.waitFor(1)
    const message = Buffer.from(mail?.raw ?? '')
    const resolver = resolverOf(records)
    const verified = await dkimVerify(message, { resolver })
    expect(verified.results.map((r) => [r.signingDomain, r.selector, r.algo, r.status.result])).toEqual([
      ['kennect.test', 'kennect1', 'rsa-sha256', 'pass'],
    ])
    expect(signedFields(verified.results[0]?.signingHeaders?.keys)).toEqual(
      expect.arrayContaining(['from', 'subject', 'message-id', 'list-unsubscribe', 'list-unsubscribe-post']),
    )
    // Taking the one-click header away breaks the signature: a mailbox can trust it.
    const stripped = Buffer.from(message.toString('latin1').replace(/^List-Unsubscribe-Post:.*\r?\n/im, ''), 'latin1')
    expect((await dkimVerify(stripped, { resolver })).results.map((r) => r.status.result)).toEqual(['fail'])
  })

  it('signs the files written without SMTP with an Ed25519 key (RFC 8463): k=ed25519 and the raw key in the record', async () => {
    server = await startServer({ ...ED25519, MAIL_RATE_PER_SECOND: '0' })
    const records = recordsOf(await mailDns(server, ED25519))
    // The raw 32-byte public key: 44 characters of base64.
    expect(records.get('kennect2._domainkey.kennect.test')).toEqual([expect.stringMatching(/^v=DKIM1; k=ed25519; p=[A-Za-z0-9+/]{43}=$/)])

    await signUp(server, 'ada@example.com')
    await pageTokenFor(server.config.MAIL_DIR, 'ada@example.com')
    const [file] = readdirSync(server.config.MAIL_DIR).filter((name) => name.endsWith('.eml'))
    const message = readFileSync(join(server.config.MAIL_DIR, file ?? ''))
    const resolver = resolverOf(records)
    const verified = await dkimVerify(message, { resolver })
    expect(verified.results.map((r) => [r.signingDomain, r.selector, r.algo, r.status.result])).toEqual([
      ['kennect.test', 'kennect2', 'ed25519-sha256', 'pass'],
    ])
    expect(signedFields(verified.results[0]?.signingHeaders?.keys)).toEqual(
      expect.arrayContaining(['from', 'list-unsubscribe', 'list-unsubscribe-post']),
    )
    // One word of the body changed: the signature no longer holds.
    const changed = Buffer.from(message.toString('latin1').replace('ada@example.com', 'eve@example.com'), 'latin1')
    expect((await dkimVerify(changed, { resolver })).results.map((r) => r.status.result)).toEqual(['fail'])
  })

  it('prints DMARC at p=none, and every TXT value in quoted strings of at most 255 characters', async () => {
    server = await startServer({ ...RSA })
    const output = await mailDns(server, RSA)
    const records = recordsOf(output)
    expect(records.get('_dmarc.kennect.test')?.join('')).toMatch(/^v=DMARC1; p=none;/)
    // A 2048-bit key's record is about 410 characters: two strings, joined again by the receiver.
    expect(records.get('kennect1._domainkey.kennect.test')?.length).toBeGreaterThan(1)
    for (const strings of records.values()) for (const string of strings) expect(string.length).toBeLessThanOrEqual(255)
    expect([...output.matchAll(/"([^"]*)"/g)].every((match) => (match[1] ?? '').length <= 255)).toBe(true)
    expect(output).toMatch(/255/)
  })

  it('refuses an EC key and a 1024-bit RSA key at start, in one line naming DKIM_PRIVATE_KEY', async () => {
    for (const key of [
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
      generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey,
    ]) {
      // A SQLite file that cannot be opened: a start that got past the configuration would stop
      // there (and not listen), so the refusal is shown to come before anything is opened.
      const { code, output } = await runToExit({ ...dkimEnv(key, 'kennect1'), SQLITE_PATH: '/proc/x.db' })
      expect(code).toBe(1)
      const named = output.split('\n').filter((line) => line.includes('DKIM_PRIVATE_KEY'))
      expect(named).toHaveLength(1)
      expect(named[0]).toMatch(/DKIM_PRIVATE_KEY: expected an RSA key of 2048 bits or more or an Ed25519 key/)
      expect(output).not.toMatch(/SQLITE_PATH|BEGIN/)
    }
  })

  it('refuses a key without a selector, a selector without a key, and a key that is not one, never printing the key', () => {
    expect(() => loadConfig({ DKIM_PRIVATE_KEY: RSA.DKIM_PRIVATE_KEY })).toThrow(/DKIM_SELECTOR: required/)
    expect(() => loadConfig({ DKIM_SELECTOR: 'kennect1' })).toThrow(/DKIM_PRIVATE_KEY: required/)
    let error: unknown
    try {
      loadConfig({ DKIM_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nnot a key\\n-----END PRIVATE KEY-----', DKIM_SELECTOR: 'k' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect(String(error)).toContain('DKIM_PRIVATE_KEY')
    expect(String(error)).not.toContain('not a key')
    expect(() => loadConfig({ ...RSA, DKIM_SELECTOR: 'bad selector' })).toThrow(/DKIM_SELECTOR/)
  })
})
