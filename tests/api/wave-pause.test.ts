// A wave that stops itself (docs/decisions/019-suppression.md), on both stores: a campaign to 1,000
// confirmed addresses of which 8 % are refused for good by the SMTP server pauses itself once its
// hard bounces pass 5 % of its last deliveries (never before 20), says why in its progress and the
// audit log, leaves the rest queued, and every refused address it met is suppressed.
import { afterEach, describe, expect, it } from 'vitest'
import type { CampaignProgress } from '../../contract/campaigns'
import type { Suppression } from '../../contract/mail-events'
import { outboxSettled } from '../support/outbox'
import { startReceiver, type Receiver } from '../support/receiver'
import { seedSignUps } from '../support/seed'
import { startServer, type TestServer } from '../support/server'
import { startSmtp, type TestSmtp } from '../support/smtp'
import { STORES } from '../support/stores'
import { runSql, sameSql } from '../support/team'

const ADMIN_TOKEN = 'admin-token-for-the-wave-tests-0123456'

describe.each(STORES)('a wave on $kind', ({ kind, available }) => {
  let server: TestServer
  let smtp: TestSmtp
  let receiver: Receiver | undefined
  afterEach(async () => {
    await server?.close()
    await smtp?.stop()
    await receiver?.close()
  })
  const admin = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server.url}/admin/api${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })

  it.skipIf(!available)('pauses itself when 8 % of 1,000 bounce, says why, and suppresses whom it met', async () => {
    smtp = await startSmtp()
    server = await startServer({ ADMIN_TOKEN, SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0', WEBHOOK_ALLOW_PRIVATE: '1' }, kind)
    receiver = await startReceiver()
    const hook = await admin('/webhooks', { method: 'POST', body: { url: receiver.url, events: ['campaign.paused'] } })
    expect(hook.status).toBe(201)
    receiver.secrets.push(((await hook.json()) as { secret: string }).secret)
    const env = kind === 'postgres' ? { DATABASE_URL: server.config.DATABASE_URL } : { SQLITE_PATH: server.config.SQLITE_PATH }
    const { confirmed } = await seedSignUps(env, { confirmed: 1000, prefix: 'wave' })
    const dead = confirmed.filter((_, i) => i % 25 < 2) // 80 of them
    for (const address of dead) smtp.refuse.add(address.toLowerCase())
    const sent = await admin('/campaigns', { method: 'POST', body: { subject: 'We launch', markdown: 'Hello.', segment: {}, send: true } })
    expect(sent.status).toBe(201)
    const { id } = (await sent.json()) as { id: number }
    let progress: CampaignProgress | undefined
    for (let i = 0; i < 600 && progress?.status !== 'paused'; i += 1) {
      progress = ((await (await admin('/campaigns')).json()) as CampaignProgress[]).find((c) => c.id === id)
      if (progress?.status === 'finished') break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(progress?.status).toBe('paused')
    expect(progress?.pausedReason).toMatch(/^hard bounces: \d+ of the last \d+ deliveries \(\d+\.\d %, above 5\.0 %\)$/)
    const [, hard, deliveries] = /hard bounces: (\d+) of the last (\d+)/.exec(progress?.pausedReason ?? '') ?? []
    expect(Number(deliveries)).toBeGreaterThanOrEqual(20)
    expect(Number(hard) / Number(deliveries)).toBeGreaterThan(0.05)
    // It stopped with most of the wave still waiting.
    await new Promise((resolve) => setTimeout(resolve, 500)) // sends under way settle
    const later = ((await (await admin('/campaigns')).json()) as CampaignProgress[]).find((c) => c.id === id)
    expect(later?.status).toBe('paused')
    expect(later?.queued).toBeGreaterThan(500)
    expect(later?.delivery.sent ?? 0).toBeLessThan(500)
    // Every refused address the wave met is suppressed, for good.
    const met = new Set(smtp.attempts.map((a) => a.toLowerCase()).filter((a) => smtp.refuse.has(a)))
    expect(met.size).toBeGreaterThan(0)
    const listed = ((await (await admin('/suppressions')).json()) as { items: Suppression[] }).items
    expect(new Set(listed.filter((s) => s.reason === 'hard-bounce').map((s) => s.email))).toEqual(met)
    const audit = (await (await admin('/audit')).json()) as { items: { action: string; actor: string; target: string | null }[] }
    expect(audit.items.find((item) => item.action === 'campaign paused')).toMatchObject({
      actor: 'deliverability',
      target: `campaign ${id}`,
    })
    // …and by a webhook event, written once.
    await receiver.until((got) => got.length > 0)
    expect(receiver.received.map((r) => [r.type, r.data])).toEqual([
      ['campaign.paused', { id, recipients: 1000, reason: progress?.pausedReason, by: 'deliverability' }],
    ])
    expect(await runSql(server, sameSql(`SELECT count(*) AS n FROM webhook_events WHERE type = 'campaign.paused'`))).toEqual([
      { n: kind === 'postgres' ? '1' : 1 },
    ])
  })

  it.skipIf(!available)('does not stop a wave whose last mail has left, however late its complaints come', async () => {
    smtp = await startSmtp()
    server = await startServer({ ADMIN_TOKEN, SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' }, kind)
    const env = kind === 'postgres' ? { DATABASE_URL: server.config.DATABASE_URL } : { SQLITE_PATH: server.config.SQLITE_PATH }
    await seedSignUps(env, { confirmed: 30, prefix: 'late' })
    const sent = await admin('/campaigns', { method: 'POST', body: { subject: 'We launch', markdown: 'Hello.', segment: {}, send: true } })
    const { id } = (await sent.json()) as { id: number }
    await outboxSettled(server.app.store)
    const mails = await runSql(server, sameSql(`SELECT id FROM outbox WHERE campaign_id = ?`), [id])
    expect(mails).toHaveLength(30)
    for (const mail of mails)
      expect((await server.app.suppressions.report({ outboxId: Number(mail.id), type: 'complaint', source: 'fbl' })).recorded).toBe(true)
    const progress = ((await (await admin('/campaigns')).json()) as CampaignProgress[]).find((c) => c.id === id)
    expect([progress?.status, progress?.pausedReason]).toEqual(['finished', null])
  })
})
