// Several server processes on one PostgreSQL database (DESIGN, Scale): the per-IP limits and the
// admin lockout hold for the whole deployment, not once per instance.
import { describe, expect, it } from 'vitest'
import { useTwoInstances } from '../support/instances'
import { postgresAvailable } from '../support/postgres'

const TOKEN = 'admin-token-for-instances-0123456789'

describe.skipIf(!postgresAvailable)('two instances on one PostgreSQL database', () => {
  const { db, on } = useTwoInstances({
    ADMIN_TOKEN: TOKEN,
    RATE_LIMIT_PER_MINUTE: '3',
    RATE_LIMIT_PER_HOUR: '0',
    TRUST_PROXY: 'loopback',
  })

  it('share the per-IP limit: a client alternating between them gets it once, not twice', async () => {
    const statuses = []
    for (let i = 0; i < 6; i++) {
      const answer = await fetch(`${on(i)}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.20' },
        body: JSON.stringify({ email: `spread${i}@example.com` }),
      })
      statuses.push(answer.status)
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429])
    expect(Number((await db().query<{ n: string }>('SELECT count(*) AS n FROM waitlist')).rows[0]?.n)).toBe(3)
  })

  it('share the admin lockout: ten wrong tokens in all, then both refuse the address', async () => {
    const guesser = { 'X-Forwarded-For': '198.51.100.21' }
    const statuses = []
    for (let i = 0; i < 10; i++) {
      statuses.push((await fetch(`${on(i)}/admin/api/stats`, { headers: { ...guesser, Authorization: `Bearer wrong-${i}` } })).status)
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 401])
    for (let i = 0; i < 2; i++) {
      expect((await fetch(`${on(i)}/admin/api/stats`, { headers: { ...guesser, Authorization: `Bearer ${TOKEN}` } })).status).toBe(429)
    }
    expect((await fetch(`${on(0)}/admin/api/stats`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200)
  })
})
