import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../server/config'

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    const config = loadConfig({})
    expect([config.DATABASE_URL, config.WAITLIST_ANON_KEY, config.ADMIN_TOKEN, config.TRUST_PROXY, config.FORM_SECRET]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ])
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      SQLITE_PATH: 'data/waitlist.db',
      RATE_LIMIT_PER_MINUTE: 20,
      RATE_LIMIT_PER_HOUR: 200,
      CORS_ORIGINS: ['*'],
      FORM_MIN_SECONDS: 2,
      BLOCK_DISPOSABLE_EMAIL: false,
    })
  })

  it('checks the bot settings: a long enough form secret, a sane minimum time, a 0/1 switch', () => {
    expect(loadConfig({ FORM_SECRET: 'x'.repeat(32), FORM_MIN_SECONDS: '0.5', BLOCK_DISPOSABLE_EMAIL: '1' })).toMatchObject({
      FORM_SECRET: 'x'.repeat(32),
      FORM_MIN_SECONDS: 0.5,
      BLOCK_DISPOSABLE_EMAIL: true,
    })
    expect(() => loadConfig({ FORM_SECRET: 'short' })).toThrow(/FORM_SECRET: expected at least 32 characters/)
    expect(() => loadConfig({ FORM_MIN_SECONDS: '120' })).toThrow(/FORM_MIN_SECONDS/)
    expect(() => loadConfig({ BLOCK_DISPOSABLE_EMAIL: 'yes' })).toThrow(/BLOCK_DISPOSABLE_EMAIL/)
  })

  it('checks the providers’ webhook settings: an EC key, a topic ARN, an https pattern that compiles', () => {
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64')
    const topic = 'arn:aws:sns:eu-west-1:123456789012:kennect-ses'
    expect(loadConfig({ SENDGRID_WEBHOOK_PUBLIC_KEY: key, SES_SNS_TOPIC_ARN: topic })).toMatchObject({
      SENDGRID_WEBHOOK_PUBLIC_KEY: key,
      SES_SNS_TOPIC_ARN: topic,
    })
    expect(() => loadConfig({ SENDGRID_WEBHOOK_PUBLIC_KEY: 'not-a-key' })).toThrow(/SENDGRID_WEBHOOK_PUBLIC_KEY: expected the signed/)
    expect(() => loadConfig({ SES_SNS_TOPIC_ARN: 'kennect-ses' })).toThrow(/SES_SNS_TOPIC_ARN: expected a topic ARN/)
    expect(() => loadConfig({ SNS_CERT_URL_PATTERN: 'https://sns.(' })).toThrow(/SNS_CERT_URL_PATTERN/)
    expect(() => loadConfig({ SNS_CERT_URL_PATTERN: 'http://.*' })).toThrow(/SNS_CERT_URL_PATTERN/)
  })

  it('takes an RSA key of 2048 bits or more or an Ed25519 key for DKIM, and refuses any other key by its kind', () => {
    const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString()
    const problem = (key: string) => {
      try {
        loadConfig({ DKIM_PRIVATE_KEY: key, DKIM_SELECTOR: 'kennect1' })
        return 'accepted'
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError)
        const lines = (error as Error).message.split('\n').filter((line) => line.includes('DKIM_PRIVATE_KEY'))
        expect(lines).toHaveLength(1)
        expect(lines[0]).toContain('(value not shown: it holds a secret)')
        return lines[0]?.trim()
      }
    }
    expect(problem(pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey))).toBe('accepted')
    expect(problem(pem(generateKeyPairSync('ed25519').privateKey))).toBe('accepted')
    const expected = 'DKIM_PRIVATE_KEY: expected an RSA key of 2048 bits or more or an Ed25519 key'
    expect(problem(pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey))).toMatch(`${expected}, got an EC key`)
    expect(problem(pem(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey))).toMatch(`${expected}, got a 1024-bit RSA key`)
    expect(problem(pem(generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 }).privateKey))).toMatch(
      `${expected}, got a DSA key`,
    )
    expect(problem('-----BEGIN PRIVATE KEY-----\\ngarbage\\n-----END PRIVATE KEY-----')).toMatch(
      /^DKIM_PRIVATE_KEY: expected a private key in PEM/,
    )
  })

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ PORT: '', WAITLIST_ANON_KEY: '' })
    expect(config.PORT).toBe(3000)
    expect(config.WAITLIST_ANON_KEY).toBeUndefined()
  })

  it('names every wrong variable in one message', () => {
    const env = { PORT: 'x', DATABASE_URL: 'mysql://db', RATE_LIMIT_PER_MINUTE: '-1', CORS_ORIGINS: 'kennect.app/path' }
    let message = ''
    try {
      loadConfig(env)
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      message = (error as Error).message
    }
    expect(message).toContain('PORT: ')
    expect(message).toContain('got "x"')
    expect(message).toContain('DATABASE_URL: expected a postgres:// or postgresql:// URL')
    expect(message).toContain('RATE_LIMIT_PER_MINUTE: ')
    expect(message).toContain('CORS_ORIGINS: ')
  })

  it('never prints the value of a secret: passwords in URLs, tokens, keys', () => {
    const env = {
      DATABASE_URL: 'mysql://admin:SuperSecret123@db/x',
      ADMIN_TOKEN: 'fifteen-chars-x',
      FORM_SECRET: 'short-form-secret',
      WAITLIST_ANON_KEY: ' ',
      PORT: 'x',
    }
    let message = ''
    try {
      loadConfig(env)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('DATABASE_URL: expected a postgres:// or postgresql:// URL (value not shown: it holds a secret)')
    expect(message).toContain('ADMIN_TOKEN: expected at least 16 characters (value not shown: it holds a secret)')
    expect(message).toContain('FORM_SECRET: expected at least 32 characters')
    expect(message).toContain('PORT: ') // not a secret: its value helps
    expect(message).toContain('got "x"')
    for (const secret of ['SuperSecret123', 'admin:', 'fifteen-chars-x', 'short-form-secret']) expect(message).not.toContain(secret)
  })

  it('reads the apps that open /app/ links: fingerprints in either case, kept upper-case and once', () => {
    const lower = '14:6d:e9:83:c5:73:06:50:d8:ee:b9:95:2f:34:fc:64:16:a0:83:42:e6:1d:be:a8:8a:04:96:b2:3f:cf:44:e5'
    const config = loadConfig({
      IOS_APP_ID: 'ABCDE12345.app.kennect.ios',
      ANDROID_PACKAGE: 'app.kennect.android',
      ANDROID_CERT_SHA256: `${lower}, ${lower.toUpperCase()},${'0A:'.repeat(31)}0B`,
      PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=app.kennect.android',
    })
    expect(config.IOS_APP_ID).toBe('ABCDE12345.app.kennect.ios')
    expect(config.ANDROID_PACKAGE).toBe('app.kennect.android')
    expect(config.ANDROID_CERT_SHA256).toEqual([lower.toUpperCase(), `${'0A:'.repeat(31)}0B`])
    expect(config.PLAY_STORE_URL).toBe('https://play.google.com/store/apps/details?id=app.kennect.android')
  })

  it('takes a store address with a port, an IPv6 host or a query, as it is', () => {
    const stores = {
      APP_STORE_URL: 'https://apps.apple.com:443/us/app/kennect/id6400000000?mt=8',
      PLAY_STORE_URL: 'https://[2001:db8::1]:8443/store/apps/details?id=app.kennect.android&hl=de',
    }
    expect(loadConfig(stores)).toMatchObject(stores)
  })

  it.each([
    [{ IOS_APP_ID: 'app.kennect.ios' }, 'IOS_APP_ID: expected the team id and the bundle id'],
    [{ ANDROID_PACKAGE: 'kennect' }, 'ANDROID_PACKAGE: expected a package name'],
    [{ ANDROID_PACKAGE: 'app.kennect.android', ANDROID_CERT_SHA256: '14:6D:E9' }, 'ANDROID_CERT_SHA256: expected SHA-256 fingerprints'],
    [{ ANDROID_PACKAGE: 'app.kennect.android' }, 'ANDROID_CERT_SHA256: required with ANDROID_PACKAGE'],
    [{ ANDROID_CERT_SHA256: `${'AB:'.repeat(31)}CD` }, 'ANDROID_PACKAGE: required with ANDROID_CERT_SHA256'],
    [{ PLAY_STORE_URL: 'http://play.google.com/store/apps/details?id=x' }, 'PLAY_STORE_URL: expected the https:// address'],
    // Parsed whole, not by their start (issue 49): each of these started, then failed every Android mail.
    [
      { PLAY_STORE_URL: 'https://play.google.com:99999/store/apps/details?id=app.kennect' },
      'PLAY_STORE_URL: expected the https:// address',
    ],
    [{ PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=app kennect' }, 'PLAY_STORE_URL: expected the https:// address'],
    [{ PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id="app.kennect"' }, 'PLAY_STORE_URL: expected the https:// address'],
    [{ PLAY_STORE_URL: 'https://[::1/store' }, 'PLAY_STORE_URL: expected the https:// address'],
    [{ APP_STORE_URL: 'https://apps.apple.com:0x1bb/app/id1' }, 'APP_STORE_URL: expected the https:// address'],
    [{ APP_STORE_URL: "https://apps.apple.com/app/kennect's/id1" }, 'APP_STORE_URL: expected the https:// address'],
    [{ APP_STORE_URL: 'https://user:secret@apps.apple.com/app/id1' }, 'APP_STORE_URL: expected the https:// address'],
    [{ APP_STORE_URL: 'https:apps.apple.com/app/id1' }, 'APP_STORE_URL: expected the https:// address'],
  ])('refuses %o, naming the variable in one line', (env, line) => {
    let message = ''
    try {
      loadConfig(env)
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      message = (error as Error).message
    }
    const lines = message.split('\n')
    expect(lines[0]).toBe('Invalid configuration:')
    expect(lines.slice(1)).toHaveLength(1)
    expect(lines[1]).toContain(line)
  })

  it('splits the CORS origin list', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://kennect.app, https://www.kennect.app' }).CORS_ORIGINS).toEqual([
      'https://kennect.app',
      'https://www.kennect.app',
    ])
  })
})

describe('the variables', () => {
  it('have one spelling in config.ts, .env.example and the README table', () => {
    const example = readFileSync('.env.example', 'utf8')
    const readme = readFileSync('README.md', 'utf8')
    const inExample = CONFIG_VARIABLES.filter((name) => new RegExp(`^#? ?${name}=`, 'm').test(example))
    const inReadme = CONFIG_VARIABLES.filter((name) => new RegExp(`^\\| [^|]*\`${name}\``, 'm').test(readme))
    expect(inExample).toEqual(CONFIG_VARIABLES)
    expect(inReadme).toEqual(CONFIG_VARIABLES)
  })
})
