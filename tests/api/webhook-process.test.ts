// Webhooks as durable as the sign-up, with the real server process and a verifying receiver:
// SIGKILL during a burst of sign-ups then a restart (every event delivered, none under two ids),
// and two instances on one PostgreSQL database (each event delivered once).
import { afterEach, describe, expect, it } from 'vitest'
import { type ServerProcess, spawnServer } from '../support/process'
import { startReceiver, type Receiver } from '../support/receiver'
import { freshDatabase, startServer } from '../support/server'
import { STORES } from '../support/stores'
import { postgresAvailable } from '../support/postgres'

const ADMIN_TOKEN = 'webhook-process-admin-token-0123456789'
const join = (url: string, email: string) =>
  fetch(`${url}/rest/v1/waitlist`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email }) })

/** An endpoint for signup.created with the address in it (so the test can tell sign-ups apart). */
async function endpoint(url: string, receiver: Receiver) {
  const answer = await fetch(`${url}/admin/api/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url, events: ['signup.created'], includeEmail: true }),
  })
  expect(answer.status).toBe(201)
  receiver.secrets.push(((await answer.json()) as { secret: string }).secret)
}

/** Each address's webhook-ids, as they arrived. */
function idsByAddress(receiver: Receiver): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>()
  for (const got of receiver.received) {
    const email = String(got.data.email)
    ids.set(email, (ids.get(email) ?? new Set()).add(got.id))
  }
  return ids
}

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe.each(STORES)('SIGKILL during a burst of sign-ups on $kind', ({ kind, available }) => {
  it.skipIf(!available)(
    'delivers every acknowledged sign-up after the restart, each under one webhook-id',
    async () => {
      const receiver = await startReceiver()
      cleanups.push(() => receiver.close())
      const db = await freshDatabase(kind)
      cleanups.push(db.cleanup)
      const env = {
        ...db.env,
        ADMIN_TOKEN,
        WEBHOOK_ALLOW_PRIVATE: '1',
        RATE_LIMIT_PER_MINUTE: '0',
        RATE_LIMIT_PER_HOUR: '0',
        MAIL_RATE_PER_SECOND: '0',
      }
      const first: ServerProcess = await spawnServer(env)
      cleanups.push(() => first.stop('SIGKILL'))
      await endpoint(first.url, receiver)

      const acknowledged: string[] = []
      let killed = false
      const worker = async (w: number) => {
        for (let i = 0; !killed; i++) {
          const email = `burst-${w}-${i}@example.com`
          try {
            if ((await join(first.url, email)).status === 201) acknowledged.push(email)
            // Once deliveries are under way (or after 2,000 sign-ups, whichever comes first).
            if ((receiver.received.length >= 20 || acknowledged.length >= 2000) && !killed) {
              killed = true
              first.child.kill('SIGKILL') // with sign-ups in flight and deliveries half made
            }
          } catch {
            return // the connection died with the server: never acknowledged
          }
        }
      }
      await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)))
      await first.stop('SIGKILL')
      const beforeRestart = receiver.received.length

      const second = await spawnServer(env)
      cleanups.push(() => second.stop('SIGKILL'))
      const wanted = new Set(acknowledged)
      for (let i = 0; i < 1800 && [...wanted].some((email) => !idsByAddress(receiver).has(email)); i++)
        await new Promise((resolve) => setTimeout(resolve, 50))
      const ids = idsByAddress(receiver)
      const missing = acknowledged.filter((email) => !ids.has(email))
      const twoIds = [...ids].filter(([, set]) => set.size > 1).map(([email]) => email)
      console.log(
        `webhook crash ${kind}: ${acknowledged.length} acknowledged, ${beforeRestart} delivered before the kill, ${receiver.received.length} in all, ${receiver.received.length - ids.size} repeated, ${missing.length} missing`,
      )
      expect(receiver.rejected).toBe(0)
      expect(missing).toEqual([])
      expect(twoIds).toEqual([])
      expect(await second.stop('SIGTERM')).toBe(0)
    },
    150_000,
  )
})

describe.skipIf(!postgresAvailable)('two instances on one PostgreSQL database', () => {
  it('deliver each event once', async () => {
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const one = await startServer({ ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE: '1' }, 'postgres')
    cleanups.push(() => one.close())
    const two = await startServer({ ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE: '1', DATABASE_URL: one.config.DATABASE_URL ?? '' }, 'postgres')
    cleanups.push(() => two.close())
    await endpoint(one.url, receiver)
    const emails = Array.from({ length: 120 }, (_, i) => `twice-${i}@example.com`)
    await Promise.all(emails.map((email, i) => join(i % 2 === 0 ? one.url : two.url, email)))
    await receiver.until((got) => new Set(got.map((r) => r.data.email)).size === emails.length)
    await new Promise((resolve) => setTimeout(resolve, 1500)) // a second delivery would have come by now
    const ids = receiver.received.map((r) => r.id)
    expect(ids).toHaveLength(emails.length)
    expect(new Set(ids).size).toBe(emails.length)
    // One attempt each: no delivery was made twice, by either instance.
    const [made] = await one.app.store.webhooks.endpoints()
    expect(await one.app.store.webhooks.attempts(made?.id ?? 0, { limit: 200 })).toHaveLength(emails.length)
  })
})
