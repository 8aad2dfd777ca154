// Campaigns at scale, with the real server process and a real SMTP server: 3,000 recipients each
// mailed once (unconfirmed and unsubscribed addresses never), the pace held within 20 %, a
// SIGKILL mid-campaign that the restart resumes by itself, and two instances on one PostgreSQL
// database that mail each recipient once.
import { afterEach, describe, expect, it } from 'vitest'
import { createTestSchema, postgresAvailable } from '../support/postgres'
import { type ServerProcess, spawnServer } from '../support/process'
import { seedSignUps } from '../support/seed'
import { freshDatabase } from '../support/server'
import { startSmtp, type TestSmtp } from '../support/smtp'
import { STORES } from '../support/stores'

const TOKEN = 'scale-admin-token-0123456789'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function smtpServer(): Promise<TestSmtp> {
  const smtp = await startSmtp({ parse: false })
  cleanups.push(() => smtp.stop())
  return smtp
}

async function server(env: Record<string, string>): Promise<ServerProcess> {
  const running = await spawnServer({ ADMIN_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0', ...env })
  cleanups.push(() => running.stop('SIGKILL'))
  return running
}

/** A campaign to everyone confirmed, sent at once; answers its id and recipients. */
async function sendToAll(url: string, subject: string): Promise<{ id: number; recipients: number }> {
  const answer = await fetch(`${url}/admin/api/campaigns`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ subject, markdown: 'The app is here. [Your page]({{my_page_url}})', segment: {}, send: true }),
  })
  expect(answer.status).toBe(201)
  return (await answer.json()) as { id: number; recipients: number }
}

/** Every address's Message-IDs as they arrived. */
function idsByAddress(smtp: TestSmtp): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>()
  for (const mail of smtp.received) ids.set(mail.to, (ids.get(mail.to) ?? new Set()).add(mail.messageId))
  return ids
}

describe('a campaign to 3,000 recipients', () => {
  it('mails each confirmed, subscribed address exactly once, and nobody else', async () => {
    const smtp = await smtpServer()
    const db = await freshDatabase('sqlite')
    cleanups.push(db.cleanup)
    const people = await seedSignUps(db.env, { confirmed: 3_000, unconfirmed: 300, unsubscribed: 200, prefix: 'scale' })
    const running = await server({ ...db.env, SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' })
    const { recipients } = await sendToAll(running.url, 'Three thousand')
    expect(recipients).toBe(3_000)
    // Correctness at scale, not speed (bench/mail.ts measures that). The recipients are chosen by
    // one INSERT ... SELECT and sent 20 at a time, so 3,000 cross the same paths as 10,000 did
    // (about 45 s alone, more than 150 s beside another layer) in under a third of the time.
    await smtp.waitFor(3_000, 120_000)
    await new Promise((resolve) => setTimeout(resolve, 1_000)) // nothing more may come
    const counts = new Map<string, number>()
    for (const mail of smtp.received) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1)
    expect(smtp.received).toHaveLength(3_000)
    expect([...counts.values()].every((n) => n === 1)).toBe(true)
    expect(people.confirmed.every((email) => counts.has(email))).toBe(true)
    expect([...people.unconfirmed, ...people.unsubscribed].filter((email) => counts.has(email))).toEqual([])
  }, 150_000)
})

describe.each(STORES)('the pace on $kind', ({ kind, available }) => {
  it.skipIf(!available)('never sends faster than MAIL_RATE_PER_SECOND (within 20 %), nor idles below half of it', async () => {
    const RATE = 50
    const smtp = await smtpServer()
    const db = await freshDatabase(kind)
    cleanups.push(db.cleanup)
    await seedSignUps(db.env, { confirmed: 500, prefix: `pace-${kind}` })
    const running = await server({ ...db.env, SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: String(RATE) })
    const arrivals: number[] = []
    const seen = smtp.received.length
    const timer = setInterval(() => {
      while (arrivals.length < smtp.received.length - seen) arrivals.push(Date.now())
    }, 5)
    cleanups.push(async () => clearInterval(timer)) // also when the wait below fails
    await sendToAll(running.url, 'Paced')
    await smtp.waitFor(500)
    clearInterval(timer)
    while (arrivals.length < smtp.received.length - seen) arrivals.push(Date.now())
    // Mails per whole second of the run, the first and last (partial) seconds left out.
    const perSecond = new Map<number, number>()
    for (const at of arrivals) perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1)
    const whole = [...perSecond.entries()]
      .sort(([a], [b]) => a - b)
      .slice(1, -1)
      .map(([, n]) => n)
    const mean = whole.reduce((sum, n) => sum + n, 0) / whole.length
    const seconds = ((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)) / 1000
    console.log(`pace ${kind}: 500 mails in ${seconds.toFixed(1)} s at ${RATE}/s; per whole second ${whole.join(' ')}`)
    // Never faster than the rate (the provider's limit): within 20 %. Not much slower either, a
    // pacer that idles would be; but a machine whose cores are taken sends slower whatever the
    // pacer does (31 a second in a CI run beside Node 26's line), so that bound is half the rate:
    // the throughput itself is bench:mail's to measure, not a test's.
    expect(whole.length).toBeGreaterThanOrEqual(6)
    expect(mean).toBeLessThanOrEqual(RATE * 1.2)
    expect(seconds).toBeGreaterThanOrEqual((500 / RATE - 1) * 0.8)
    expect(mean).toBeGreaterThanOrEqual(RATE * 0.5)
    expect(seconds).toBeLessThanOrEqual(500 / (RATE * 0.5))
  })
})

describe.each(STORES)('SIGKILL mid-campaign on $kind', ({ kind, available }) => {
  it.skipIf(!available)(
    'resumes by itself after the restart: every recipient mailed, none under two Message-IDs',
    async () => {
      const smtp = await smtpServer()
      const db = await freshDatabase(kind)
      cleanups.push(db.cleanup)
      const people = await seedSignUps(db.env, { confirmed: 2_000, prefix: `killed-${kind}` })
      const env = { ...db.env, SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' }
      const first = await server(env)
      await sendToAll(first.url, 'Interrupted')
      await smtp.waitFor(400, 60_000)
      first.child.kill('SIGKILL')
      await first.stop('SIGKILL')
      const atKill = smtp.received.length
      expect(atKill).toBeLessThan(2_000)
      await server(env) // resumes by itself: nobody presses Send again
      // Every recipient, not 2,000 mails: one in flight at the kill may arrive twice (same Message-ID).
      await smtp.waitForRecipients(2_000, 90_000)
      const ids = idsByAddress(smtp)
      expect(people.confirmed.filter((email) => !ids.has(email))).toEqual([])
      expect([...ids].filter(([, set]) => set.size > 1)).toEqual([])
      console.log(
        `campaign kill ${kind}: ${atKill} mails before the kill, ${smtp.received.length} in all, ${smtp.received.length - ids.size} repeated`,
      )
    },
    150_000,
  )
})

describe.skipIf(!postgresAvailable)('a campaign with two instances on one PostgreSQL database', () => {
  it('mails each recipient once', async () => {
    const smtp = await smtpServer()
    const db = await createTestSchema()
    cleanups.push(db.cleanup)
    await seedSignUps({ DATABASE_URL: db.url }, { confirmed: 2_000, prefix: 'shared' })
    const env = { DATABASE_URL: db.url, SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' }
    const [one] = [await server(env), await server(env)]
    await sendToAll(one?.url ?? '', 'Shared')
    await smtp.waitFor(2_000, 90_000)
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const counts = new Map<string, number>()
    for (const mail of smtp.received) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1)
    expect(smtp.received).toHaveLength(2_000)
    expect([...counts.values()].every((n) => n === 1)).toBe(true)
  }, 120_000)
})
