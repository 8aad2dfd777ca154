import { describe, expect, it } from 'vitest'
import { disposableDomainCheck } from '../../server/waitlist/disposable'
import { formTokens, TOKEN_MAX_AGE_MS } from '../../server/waitlist/form-token'

const SECRET = 'unit-test-secret-of-at-least-32-characters'

describe('form tokens', () => {
  const tokens = formTokens(SECRET, 3000)
  const issuedAt = Date.UTC(2026, 10, 21, 12)
  const token = tokens.issue(issuedAt)

  it('tell a person (old enough) from a bot (too fast), up to a day', () => {
    expect(tokens.check(token, issuedAt)).toBe('tooFast')
    expect(tokens.check(token, issuedAt + 2999)).toBe('tooFast')
    expect(tokens.check(token, issuedAt + 3000)).toBe('ok')
    expect(tokens.check(token, issuedAt + TOKEN_MAX_AGE_MS)).toBe('ok')
    expect(tokens.check(token, issuedAt + TOKEN_MAX_AGE_MS + 1)).toBe('invalid')
  })

  it('allow a minute of clock skew between instances, no more', () => {
    expect(tokens.check(token, issuedAt - 60_000)).toBe('tooFast')
    expect(tokens.check(token, issuedAt - 60_001)).toBe('invalid')
  })

  it('refuse a token whose time was changed, whose signature was changed, or signed with another key', () => {
    const [time = '', signature = ''] = token.split('.')
    const earlier = (parseInt(time, 36) - 10_000).toString(36)
    expect(tokens.check(`${earlier}.${signature}`, issuedAt + 5000)).toBe('invalid')
    expect(tokens.check(`${time}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`, issuedAt + 5000)).toBe('invalid')
    expect(formTokens('another-secret-of-at-least-32-characters', 3000).check(token, issuedAt + 5000)).toBe('invalid')
    for (const junk of [undefined, '', '.', 'abc', `${token}.x`, `-1.${signature}`, `${time}.`]) {
      expect(tokens.check(junk, issuedAt + 5000)).toBe('invalid')
    }
  })

  it('without a secret, use a random key per process', () => {
    const a = formTokens(undefined, 0)
    expect(a.ephemeral).toBe(true)
    expect(a.check(a.issue(issuedAt), issuedAt + 1)).toBe('ok')
    expect(formTokens(undefined, 0).check(a.issue(issuedAt), issuedAt + 1)).toBe('invalid')
    expect(formTokens(SECRET, 0).ephemeral).toBe(false)
  })
})

describe('the disposable-domain check', () => {
  const blocked = disposableDomainCheck()
  it('matches listed domains and their subdomains, in any case, and nothing else', () => {
    expect(blocked('mailinator.com')).toBe(true)
    expect(blocked('MAILINATOR.COM')).toBe(true)
    expect(blocked('eu.mailinator.com')).toBe(true)
    expect(blocked('example.com')).toBe(false)
    expect(blocked('gmail.com')).toBe(false)
    expect(blocked('mailinator.com.example.org')).toBe(false)
    expect(blocked('kennect.app')).toBe(false)
    expect(blocked('com')).toBe(false)
  })
})
