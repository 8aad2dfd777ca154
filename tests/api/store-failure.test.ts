import { afterEach, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from '../support/server'

let server: TestServer | undefined
afterEach(() => server?.close())

describe('a store that stops answering', () => {
  it('turns into a retryable 503 PGRST002 and a failing /readyz, never a crash', async () => {
    server = await startServer()
    await server.app.store.close()
    const response = await fetch(`${server.url}/rest/v1/waitlist`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'later@example.com' }),
    })
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      code: 'PGRST002',
      details: null,
      hint: 'Please try again.',
      message: 'Could not connect to the database',
    })
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })
})
