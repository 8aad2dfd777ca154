// C18: PostgreSQL stops under a running server, then starts again. While it is down, inserts
// answer 503 PGRST002 at once and /readyz 503; afterwards both recover without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPrivatePostgres, type PrivatePostgres, privatePostgresAvailable } from '../support/private-postgres'
import { postgresAvailable } from '../support/postgres'
import { startServer, type TestServer } from '../support/server'

// Bounds for "answers at once" and "recovers by itself", far above the expected ~0.1 s, so a busy
// machine does not fail the test while a hanging request (15 s timeout) still would.
const ANSWER_BOUND_MS = 5_000
const RECOVERY_BOUND_MS = 15_000

describe.skipIf(!postgresAvailable || !privatePostgresAvailable)('C18: PostgreSQL stopped, then started again', () => {
  let database: PrivatePostgres
  let server: TestServer
  beforeAll(async () => {
    database = await createPrivatePostgres()
    server = await startServer({ DATABASE_URL: database.url }, 'postgres')
  })
  afterAll(async () => {
    await server?.close()
    database?.destroy()
  })

  const join = (email: string) =>
    fetch(`${server.url}/rest/v1/waitlist`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    })

  it('answers 503 quickly while the database is down and 201 again once it is back', async () => {
    expect((await join('before@example.com')).status).toBe(201)
    database.stop()

    const started = Date.now()
    const down = await join('during@example.com')
    const elapsed = Date.now() - started
    expect(down.status).toBe(503)
    expect(await down.json()).toMatchObject({ code: 'PGRST002', message: 'Could not connect to the database' })
    expect(elapsed).toBeLessThan(ANSWER_BOUND_MS)
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)

    database.start()
    const deadline = Date.now() + RECOVERY_BOUND_MS
    let status = 0
    while (Date.now() < deadline && status !== 201) {
      status = (await join('after@example.com')).status
      if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(status).toBe(201)
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200)
    const emails = (await server.app.store.list({ limit: 10 })).map((r) => r.email)
    expect(emails).toEqual(['before@example.com', 'after@example.com'])
  })
})
