import { describe, expect, it } from 'vitest'
import { redactName, redactPath, redactPersonal } from '../../server/http/redact'

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

describe('a token-shaped word', () => {
  const token = 'q7Zx_9-KpLm4rk3rAb0-Cd1_Ef2Gh3Ij4Kl5Mn6Op7Q'

  // Issue 39, item 4: a link pasted with the punctuation after it (a full stop, a bracket, an
  // extension a mail client added) was logged whole.
  it.each([
    [`/admin/setup/${token}`, '/admin/setup/[secret]'],
    [`/admin/setup/${token}.`, '/admin/setup/[secret].'],
    [`/admin/setup/${token})`, '/admin/setup/[secret])'],
    [`/admin/setup/${token}.html`, '/admin/setup/[secret].html'],
    [`/admin/setup/${token}%2E`, '/admin/setup/[secret].'],
    [`/admin/sign-in/(${token}),`, '/admin/sign-in/([secret]),'],
    [`/admin/setup/${token}/${token}!`, '/admin/setup/[secret]/[secret]!'],
    [`/x/${token}:${token}`, '/x/[secret]:[secret]'],
    [`/x/a.${token}`, '/x/a.[secret]'],
  ])('is redacted in the path %j, whatever stands around it', (input, expected) => {
    expect(redactPath(input)).toBe(expected)
  })

  it.each([
    [token, '[secret]'],
    [`${token}.`, '[secret].'],
    [`(${token})`, '([secret])'],
    [`x.${token}.html`, 'x.[secret].html'],
  ])('is redacted in the query parameter name %j', (input, expected) => {
    expect(redactName(input)).toBe(expected)
  })

  it.each([
    '/assets/index-Bx9f2.js',
    '/assets/visitor-BLFIoiaD.js.br',
    '/de/how-to-find-a-dog-sitter-nearby.',
    '/rest/v1/waitlist',
    '/admin/api/campaigns/123456789012',
  ])('leaves %j alone', (path) => {
    expect(redactPath(path)).toBe(path)
  })
})
