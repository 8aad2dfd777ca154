// What an attempt's answer means for a delivery and its endpoint (server/webhooks/worker.ts): the
// Standard Webhooks schedule with jitter, Retry-After, a 410, five failing days, and the address
// checks behind every connection.
import { describe, expect, it } from 'vitest'
import { WEBHOOK_FAILING_MS, WEBHOOK_RETRY_MS } from '../../contract/webhooks'
import { isPublicAddress, urlProblem } from '../../server/webhooks/address'
import { outcomeOf, retryAfterMs, signed } from '../../server/webhooks/worker'
import type { ClaimedDelivery } from '../../server/store/types'
import { Webhook } from 'standardwebhooks'

const at = new Date('2026-11-24T12:00:00.000Z')
const delivery = (attempt: number, failingSince: string | null = null): ClaimedDelivery => ({
  id: 1,
  attempt,
  messageId: 'msg_0123456789abcdef0123456789abcdef',
  type: 'signup.created',
  data: { id: 7, role: null, country: null, breeds: [], locale: 'en', source: null },
  eventAt: at.toISOString(),
  email: null,
  endpoint: {
    id: 3,
    url: 'https://hooks.example.com/x',
    enabled: true,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    previous_secret: null,
    previous_until: null,
    failing_since: failingSince,
  },
})
const answer = (status: number | null, retryAfter: string | null = null) => ({
  status,
  body: 'x'.repeat(300),
  retryAfter,
  error: status === null ? 'ECONNREFUSED' : null,
})

describe('a webhook attempt', () => {
  it('is delivered on any 2xx, and keeps 200 bytes of the answer', () => {
    for (const status of [200, 201, 204, 299])
      expect(outcomeOf(delivery(1), answer(status), at, 12, 1)).toMatchObject({ state: 'delivered', disable: null })
    expect(outcomeOf(delivery(1), answer(200), at, 12, 1).response).toHaveLength(200)
  })

  it('is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, each moved by at most a tenth, then has failed', () => {
    for (const [i, wait] of WEBHOOK_RETRY_MS.entries())
      for (const random of [0, 0.5, 0.999]) {
        const next = outcomeOf(delivery(i + 1), answer(500), at, 1, 1, () => random)
        expect(next.state).toBe('pending')
        const waited = Date.parse(next.nextAttemptAt ?? '') - at.getTime()
        expect(waited).toBeGreaterThanOrEqual(wait * 0.9)
        expect(waited).toBeLessThanOrEqual(wait * 1.1)
      }
    expect(outcomeOf(delivery(8), answer(500), at, 1, 1)).toMatchObject({ state: 'failed', nextAttemptAt: null, disable: null })
    // Refused connections, timeouts and redirects are failures like any other.
    for (const status of [null, 301, 302, 400, 404, 500]) expect(outcomeOf(delivery(1), answer(status), at, 1, 1).state).toBe('pending')
  })

  it('waits as Retry-After says on a 429 or 503 (seconds or a date), and only then', () => {
    expect(Date.parse(outcomeOf(delivery(1), answer(429, '120'), at, 1, 1).nextAttemptAt ?? '') - at.getTime()).toBe(120_000)
    expect(
      Date.parse(outcomeOf(delivery(1), answer(503, new Date(at.getTime() + 60_000).toUTCString()), at, 1, 1).nextAttemptAt ?? '') -
        at.getTime(),
    ).toBe(60_000)
    expect(Date.parse(outcomeOf(delivery(1), answer(500, '120'), at, 1, 1, () => 0.5).nextAttemptAt ?? '') - at.getTime()).toBe(5_000)
    expect(retryAfterMs('99999999')).toBe(10 * 60 * 60_000)
    expect(retryAfterMs('soon')).toBeNull()
  })

  it('disables the endpoint on a 410, and after five days without a delivery', () => {
    expect(outcomeOf(delivery(1), answer(410), at, 1, 1)).toMatchObject({ state: 'failed', disable: 'gone' })
    const almost = new Date(at.getTime() - WEBHOOK_FAILING_MS + 60_000).toISOString()
    expect(outcomeOf(delivery(3, almost), answer(500), at, 1, 1)).toMatchObject({ state: 'pending', disable: null })
    const five = new Date(at.getTime() - WEBHOOK_FAILING_MS).toISOString()
    expect(outcomeOf(delivery(3, five), answer(500), at, 1, 1)).toMatchObject({
      state: 'failed',
      disable: 'failing',
    })
  })

  it('is signed as Standard Webhooks verifies it, with the old secret too for a day after a rotation', () => {
    const now = new Date()
    const oldSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    const newSecret = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMw=='
    const base = delivery(1)
    const rotated = {
      ...base,
      endpoint: {
        ...base.endpoint,
        secret: newSecret,
        previous_secret: oldSecret,
        previous_until: new Date(now.getTime() + 1000).toISOString(),
      },
    }
    const { body, headers } = signed(rotated, now)
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2)
    for (const secret of [newSecret, oldSecret])
      expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'signup.created', data: { id: 7 } })
    // A changed body or timestamp verifies with neither.
    expect(() => new Webhook(newSecret).verify(body.replace('"id":7', '"id":8'), headers)).toThrow()
    // A day later the old secret no longer signs.
    const expired = { ...rotated, endpoint: { ...rotated.endpoint, previous_until: new Date(now.getTime() - 1).toISOString() } }
    const later = signed(expired, now)
    expect(later.headers['webhook-signature']?.split(' ')).toHaveLength(1)
    expect(() => new Webhook(oldSecret).verify(later.body, later.headers)).toThrow()
  })
})

describe('where a webhook may go', () => {
  it('is a public unicast address only', () => {
    for (const address of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']) expect(isPublicAddress(address)).toBe(true)
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      'fc00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      'ff02::1',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false)
  })

  it('is https without credentials, at most 2,048 characters', () => {
    expect(urlProblem('https://hooks.example.com/x', false)).toBeNull()
    expect(urlProblem('http://hooks.example.com/x', false)).toMatch(/https/)
    expect(urlProblem('http://hooks.example.com/x', true)).toBeNull()
    expect(urlProblem('https://a:b@hooks.example.com/x', false)).toMatch(/user name/)
    expect(urlProblem(`https://hooks.example.com/${'a'.repeat(2030)}`, false)).toMatch(/2048/)
    expect(urlProblem('ftp://hooks.example.com/x', true)).toMatch(/https/)
    expect(urlProblem('https://[::1]/x', false)).toMatch(/public/)
  })
})
