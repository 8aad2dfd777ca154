// DKIM (docs/deployment.md): a sent mail carries a signature that a DKIM verifier accepts against the
// public key `mail dns` prints (the resolver is a stub of the test's own: nothing leaves the machine),
// and that fails once the mail is changed; the configuration refuses a key without its selector.
import { execFile } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { dkimVerify } from 'mailauth/lib/dkim/verify'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/config'
import { pageTokenFor } from '../support/page-links'
import { startServer, type TestServer } from '../support/server'

const CLI = join(process.cwd(), 'dist', 'server', 'operators', 'cli.js')
const run = promisify(execFile)
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const DKIM = { DKIM_PRIVATE_KEY: PEM.replace(/\n/g, '\\n'), DKIM_SELECTOR: 'kennect1', MAIL_FROM: 'Kennect <hello@kennect.test>' }

/** The TXT records `mail dns` printed, by name. */
function recordsOf(output: string): Map<string, string> {
  return new Map([...output.matchAll(/^(\S+)\. IN TXT "([^"]*)"$/gm)].map((match) => [match[1] ?? '', match[2] ?? '']))
}

describe('DKIM', () => {
  let server: TestServer | undefined
  afterEach(async () => server?.close())

  it('signs every mail so that a verifier passes it against the published key, and fails a changed one', async () => {
    server = await startServer({ ...DKIM, MAIL_RATE_PER_SECOND: '0' })
    const { stdout } = await run(process.execPath, [CLI, 'mail', 'dns'], {
      env: { PATH: process.env.PATH, ...DKIM, SQLITE_PATH: server.config.SQLITE_PATH },
    })
    const records = recordsOf(stdout)
    expect(records.get('kennect1._domainkey.kennect.test')).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/)
    expect(records.get('_dmarc.kennect.test')).toMatch(/^v=DMARC1; p=/)
    expect(records.get('kennect.test')).toMatch(/^v=spf1 /)

    const answer = await fetch(`${server.url}/rest/v1/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com' }),
    })
    expect(answer.status).toBe(201)
    await pageTokenFor(server.config.MAIL_DIR, 'ada@example.com')
    const [file] = readdirSync(server.config.MAIL_DIR).filter((name) => name.endsWith('.eml'))
    const message = readFileSync(join(server.config.MAIL_DIR, file ?? ''))
    const resolver = async (name: string, type: string) => {
      const value = records.get(name.replace(/\.$/, ''))
      if (type !== 'TXT' || !value) throw Object.assign(new Error(`no ${type} ${name}`), { code: 'ENOTFOUND' })
      return [[value]]
    }
    const verified = await dkimVerify(message, { resolver })
    expect(verified.results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([['kennect.test', 'kennect1', 'pass']])
    // One word of the body changed: the signature no longer holds.
    const changed = Buffer.from(message.toString('latin1').replace('ada@example.com', 'eve@example.com'), 'latin1')
    const broken = await dkimVerify(changed, { resolver })
    expect(broken.results.map((r) => r.status.result)).toEqual(['fail'])
  })

  it('refuses a key without a selector, a selector without a key, and a key that is not one, never printing the key', () => {
    expect(() => loadConfig({ DKIM_PRIVATE_KEY: DKIM.DKIM_PRIVATE_KEY })).toThrow(/DKIM_SELECTOR: required/)
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
    expect(() => loadConfig({ ...DKIM, DKIM_SELECTOR: 'bad selector' })).toThrow(/DKIM_SELECTOR/)
  })
})
