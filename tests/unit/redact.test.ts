import { describe, expect, it } from 'vitest'
import { redactPath, redactPersonal } from '../../server/http/redact'

describe('redactPersonal', () => {
  it.each([
    ['/u/ada@example.com', '/u/[email]'],
    ['/u/ada%40example.com', '/u/[email]'],
    ['/a/ada+dogs@kennel.example.co.uk/b', '/a/[email]/b'],
    ['/ip/203.0.113.7', '/ip/[ip]'],
    ['/ip/2001:db8::1/x', '/ip/[ip]/x'],
    ['/ip/::ffff:203.0.113.7', '/ip/[ip]'],
    ['/ip/fe80::1%25eth0', '/ip/[ip]'],
    ['/ip/%ZZ203.0.113.7', '/ip/%ZZ[ip]'],
  ])('redacts %j', (input, expected) => {
    expect(redactPersonal(input)).toBe(expected)
  })

  it.each(['/', '/assets/index-Bx9f2.js', '/@vite/client', '/v1.2.3/notes', '/rest/v1/waitlist', '/a:b', '/time/12:30:00'])(
    'leaves %j alone',
    (path) => {
      expect(redactPersonal(path)).toBe(path)
    },
  )
})

describe('redactPath', () => {
  it('hides the token of a visitor page, and what redactPersonal hides', () => {
    const token = 'A'.repeat(43)
    expect(redactPath(`/me/${token}`)).toBe('/me/[token]')
    expect(redactPath(`/me/${token}/unsubscribe`)).toBe('/me/[token]/unsubscribe')
    expect(redactPath('/me/deleted')).toBe('/me/deleted')
    expect(redactPath('/u/ada@example.com')).toBe('/u/[email]')
  })
})
