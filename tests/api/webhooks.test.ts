// Webhooks with a real receiver (a local HTTP server that verifies with the standardwebhooks
// package), on both stores (docs/decisions/018-webhooks.md): every event type arrives and
// verifies; the address only with includeEmail; a receiver down for 30 s gets every event
// afterwards under its first webhook-id; a 410 disables the endpoint; the old secret signs for a
// day after a rotation; bad input is refused naming the field; private addresses are refused at
// saving and never connected to.
import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { earlierDatabase } from '../support/earlier-schema'
import { disabledReasonWords, WEBHOOK_EVENTS, type WebhookAttempt, type WebhookEndpoint } from '../../contract/webhooks'
import { adminTranslator } from '../../locales/index'
import { localMails, recipients } from '../support/mailbox'
import { confirmOnPage, joinWithLink } from '../support/page-links'
import { startReceiver, type Receiver } from '../support/receiver'
import { startServer, type TestServer } from '../support/server'
import { STORES, type StoreKind } from '../support/stores'
import { joinTeam, runSql, sameSql, teamLinkFor } from '../support/team'
import { imported } from '../support/imports'

const ADMIN_TOKEN = 'webhook-tests-admin-token-0123456789'
/** Every server here: private addresses allowed (the receivers are local), retries 50 times sooner. */
const SERVER_ENV = {
  ADMIN_TOKEN,
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_RETRY_SCALE: '0.02',
  MAIL_RATE_PER_SECOND: '0',
  FORM_MIN_SECONDS: '0',
}

const admin =
  (server: TestServer) =>
  (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server.url}/admin/api${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
/** An endpoint for the receiver at `url`, made through the admin API; its secret shown once. */
async function createEndpoint(
  server: TestServer,
  url: string,
  body: Record<string, unknown>,
): Promise<WebhookEndpoint & { secret: string }> {
  const answer = await admin(server)('/webhooks', { method: 'POST', body: { url, ...body } })
  expect(answer.status, await answer.clone().text()).toBe(201)
  return (await answer.json()) as WebhookEndpoint & { secret: string }
}
const form = (server: TestServer, path: string, body: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    redirect: 'manual',
  })

describe.each(STORES)('webhooks on $kind', ({ kind, available }) => {
  let server: TestServer
  let receiver: Receiver
  const receivers: Receiver[] = []
  beforeAll(async () => {
    if (!available) return
    server = await startServer(SERVER_ENV, kind)
    await joinTeam(server, 'owner@kennect.example', 'owner')
  })
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close().catch(() => undefined)
    if (!available) return
    // The owner reads English again (a test may have made them Polish).
    const owner = await server.app.store.team.operatorByEmail('owner@kennect.example')
    if (owner) await server.app.store.team.setOperatorLocale(owner.id, 'en')
    // Each test's endpoints go with it.
    for (const endpoint of (await (await admin(server)('/webhooks')).json()) as WebhookEndpoint[])
      await admin(server)(`/webhooks/${endpoint.id}`, { method: 'DELETE' })
  })
  afterAll(() => server?.close())

  async function endpoint(body: Record<string, unknown>): Promise<WebhookEndpoint & { secret: string }> {
    receiver = await startReceiver()
    receivers.push(receiver)
    const made = await createEndpoint(server, receiver.url, body)
    receiver.secrets.push(made.secret)
    return made
  }

  it.skipIf(!available)(
    'delivers every event type, signed, thin, each under one webhook-id, and the address only where asked',
    async () => {
      const all = await endpoint({
        events: [...WEBHOOK_EVENTS],
        description: 'CRM',
      })
      expect(all.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      expect(Buffer.from(all.secret.slice(6), 'base64')).toHaveLength(32)
      const withAddress = await startReceiver()
      receivers.push(withAddress)
      const second = await admin(server)('/webhooks', {
        method: 'POST',
        body: { url: withAddress.url, events: ['signup.created'], includeEmail: true },
      })
      withAddress.secrets.push(((await second.json()) as { secret: string }).secret)

      // A country whose meter fills with one confirmed breeder.
      expect(
        (
          await admin(server)('/launch-targets', {
            method: 'PUT',
            body: { default: { breeders: 50, owners: 50 }, countries: { IE: { breeders: 1, owners: 0 } } },
          })
        ).status,
      ).toBe(200)
      const ada = await joinWithLink(server, 'ada@example.com', { utm_source: 'dogshow' })
      await confirmOnPage(server, ada.token)
      expect((await form(server, `/me/${ada.token}/profile`, 'role=breeder&breed-1=Whippet&side-1=stud&country=IE')).status).toBe(303)
      // Only the side changes: still a profile update, carrying the new side.
      expect((await form(server, `/me/${ada.token}/profile`, 'role=breeder&breed-1=Whippet&side-1=both&country=IE')).status).toBe(303)
      const code = (await server.app.store.visitors.data(ada.id)).invite.code
      const bea = await joinWithLink(server, 'bea@example.com', { invite: code })
      await confirmOnPage(server, bea.token)
      // The endpoint that asked for the address gets it (while the sign-up exists: a deleted one's is gone).
      await withAddress.until((got) => got.length >= 2)
      expect(withAddress.received.map((r) => r.data.email).sort()).toEqual(['ada@example.com', 'bea@example.com'])
      // A campaign to the two of them, sent to its end.
      const sent = await admin(server)('/campaigns', {
        method: 'POST',
        body: { subject: 'Hello', markdown: 'Hello.', segment: {}, send: true },
      })
      expect(sent.status).toBe(201)
      const campaign = ((await sent.json()) as { id: number }).id
      // Once sent, an operator holds it (its deliverability can too: tests/api/wave-pause.test.ts).
      await receiver.until((got) => got.some((r) => r.type === 'campaign.finished'))
      expect((await admin(server)(`/campaigns/${campaign}/pause`, { method: 'POST' })).status).toBe(200)
      // The app takes Ada's profile, by the code her campaign mail carried (docs/decisions/022-into-the-app.md).
      const app = await admin(server)('/tokens', { method: 'POST', body: { name: 'the app', role: 'app' } })
      const appToken = ((await app.json()) as { token: string }).token
      const adaData = (await (await fetch(`${server.url}/me/${ada.token}/data.json`)).json()) as { app: { code: string } }
      const claimed = await fetch(`${server.url}/api/app/claim`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${appToken}` },
        body: JSON.stringify({ code: adaData.app.code }),
      })
      expect(claimed.status).toBe(200)
      expect((await form(server, `/me/${bea.token}/unsubscribe`, '')).status).toBe(303)
      expect((await form(server, `/me/${bea.token}/delete`, 'confirm=yes')).status).toBe(303)
      // An import of two people: one event with its counts, and none per person (checked below).
      const members = await imported(
        server,
        { token: ADMIN_TOKEN },
        { mode: 'subscribe', basis: 'Club members' },
        'email\ncid@example.com\nbea@example.com\n',
      )
      expect(members.added).toBe(2)

      const types = WEBHOOK_EVENTS
      // Every type the contract lists: eleven, each arriving at least once.
      expect(types).toHaveLength(11)
      await receiver.until((got) => types.every((type) => got.some((r) => r.type === type)))
      expect(receiver.rejected).toBe(0)
      const created = receiver.received.filter((r) => r.type === 'signup.created')
      expect(created.map((r) => r.data.id).sort()).toEqual([ada.id, bea.id].sort())
      expect(created.find((r) => r.data.id === ada.id)?.data).toEqual({
        id: ada.id,
        role: null,
        country: null,
        breeds: [],
        sides: [],
        locale: 'en',
        source: 'dogshow',
        partner: null,
      })
      // The breed's id and side, never the address (this endpoint did not ask for it).
      const updates = receiver.received.filter((r) => r.type === 'signup.profile_updated').map((r) => r.data)
      // Ada as the receiver knows her after each save: a stud first, then both sides.
      const adaAs = (side: 'stud' | 'both') => ({
        id: ada.id,
        role: 'breeder',
        country: 'IE',
        breeds: ['Whippet'],
        sides: [{ breed: 'whippet', side }],
        locale: 'en',
        source: 'dogshow',
        partner: null,
      })
      expect(updates).toEqual([adaAs('stud'), adaAs('both')])
      expect(receiver.received.find((r) => r.type === 'invite.confirmed')?.data).toMatchObject({ id: bea.id, inviter: ada.id })
      expect(receiver.received.find((r) => r.type === 'country.ready')?.data).toMatchObject({ country: 'IE', breeders: 1 })
      expect(receiver.received.find((r) => r.type === 'campaign.finished')?.data).toMatchObject({ recipients: 2 })
      expect(receiver.received.filter((r) => r.type === 'campaign.paused').map((r) => r.data)).toEqual([
        { id: campaign, recipients: 2, reason: null, by: 'operator' },
      ])
      expect(receiver.received.find((r) => r.type === 'signup.deleted')?.data).toMatchObject({ id: bea.id })
      expect(receiver.received.filter((r) => r.type === 'import.completed').map((r) => r.data)).toEqual([
        { id: members.id, status: 'done', mode: 'subscribe', rows: 2, processed: 2, added: 2, filled: 0, skipped: 0, failed: 0 },
      ])
      expect(receiver.received.find((r) => r.type === 'signup.claimed')?.data).toEqual({
        ...adaAs('both'),
        claimedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) as unknown,
      })
      for (const got of receiver.received) {
        expect(got.headers['content-type']).toBe('application/json')
        expect(got.id).toMatch(/^msg_[0-9a-f]{32}$/)
        expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(120)
        expect(JSON.stringify(got.data)).not.toMatch(/@example\.com/)
      }
      // One webhook-id per event: no event arrived twice under two ids.
      const ids = receiver.received.map((r) => r.id)
      expect(new Set(ids).size).toBe(ids.length)
      // The audit log says which endpoint asked for addresses.
      const log = (await (await admin(server)('/audit?limit=50')).json()) as {
        items: { action: string; detail: { includeEmail?: boolean } | null }[]
      }
      expect(log.items).toContainEqual(
        expect.objectContaining({ action: 'webhook created', detail: expect.objectContaining({ includeEmail: true }) }),
      )
      // The delivery log: time, event, attempt, status, duration, the answer's first bytes.
      const deliveries = (await (await admin(server)(`/webhooks/${all.id}/deliveries`)).json()) as { items: WebhookAttempt[] }
      expect(deliveries.items.length).toBeGreaterThanOrEqual(types.length)
      expect(deliveries.items[0]).toMatchObject({ status: 204, state: 'delivered', attempt: 1 })
    },
  )

  it.skipIf(!available)(
    'disables an endpoint that answers 410, tells its Polish owner why in Polish, and honours Retry-After',
    async () => {
      // The owner reads Polish: the mail says why in Polish, the API by a code.
      const owner = await server.app.store.team.operatorByEmail('owner@kennect.example')
      expect(owner).toBeDefined()
      expect(await server.app.store.team.setOperatorLocale(owner?.id ?? 0, 'pl')).toBe(true)
      const gone = await endpoint({ events: ['signup.created'] })
      receiver.answer(() => ({ status: 410 }))
      await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'gone@example.com' }),
      })
      for (let i = 0; i < 100 && (await server.app.store.webhooks.endpoint(gone.id))?.enabled; i++)
        await new Promise((resolve) => setTimeout(resolve, 50))
      const after = (await (await admin(server)('/webhooks')).json()) as WebhookEndpoint[]
      expect(after.find((e) => e.id === gone.id)).toMatchObject({ enabled: false, disabledReason: 'gone' })
      // The owners are told by mail (through the outbox: here, the local mailbox).
      const notice = await teamLinkFor(server.config.MAIL_DIR, 'owner@kennect.example', '/admin/webhooks', new Set(), undefined, true)
      expect(notice).toBe(`${server.app.siteUrl()}/admin/webhooks`)
      const mail = (await localMails(server.config.MAIL_DIR)).find(
        (m) => recipients(m).includes('owner@kennect.example') && m.text?.includes(gone.url),
      )
      const polish = adminTranslator('pl', {
        url: gone.url,
        endpoint: String(gone.id),
        reason: disabledReasonWords(adminTranslator('pl'), 'gone'),
      })
      expect(mail?.text).toContain(polish.list('mails.webhookDisabled.paragraphs')[0])
      expect(mail?.text).toContain('punkt końcowy odpowiedział 410 Gone')
      const connections = receiver.connections
      await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'gone2@example.com' }),
      })
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect(receiver.connections).toBe(connections)

      const busy = await endpoint({ events: ['signup.created'] })
      receiver.answer((n) => (n === 0 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 204 }))
      const started = Date.now()
      await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'busy@example.com' }),
      })
      await receiver.until((got) => got.length === 1)
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000) // not the 100 ms the scaled schedule says
      // The receiver has the request before the worker writes down its answer: wait for the record.
      const attempts = async () =>
        ((await (await admin(server)(`/webhooks/${busy.id}/deliveries`)).json()) as { items: WebhookAttempt[] }).items
      let log = await attempts()
      for (let i = 0; i < 100 && log.length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        log = await attempts()
      }
      expect(log.map((a) => [a.attempt, a.status])).toEqual([
        [2, 204],
        [1, 503],
      ])
    },
  )

  it.skipIf(!available)(
    'signs with both secrets for a day after a rotation, sends a test event on asking (rate-limited), and resends',
    async () => {
      const made = await endpoint({ events: ['signup.confirmed'] })
      const rotated = await admin(server)(`/webhooks/${made.id}/rotate`, { method: 'POST', body: {} })
      const { secret } = (await rotated.json()) as { secret: string }
      expect(secret).not.toBe(made.secret)
      receiver.secrets.splice(0, receiver.secrets.length, secret, made.secret)
      expect((await admin(server)(`/webhooks/${made.id}/test`, { method: 'POST', body: {} })).status).toBe(202)
      await receiver.until((got) => got.length === 1)
      expect(receiver.received[0]).toMatchObject({ type: 'webhook.test', verifiedBy: [secret, made.secret] })
      expect(String(receiver.received[0]?.headers['webhook-signature']).split(' ')).toHaveLength(2)
      const statuses = []
      for (let i = 0; i < 5; i++) statuses.push((await admin(server)(`/webhooks/${made.id}/test`, { method: 'POST', body: {} })).status)
      expect(statuses).toEqual([202, 202, 202, 202, 429])
      await receiver.until((got) => got.length === 5)
      // Resending one delivery sends it again under the same webhook-id.
      const log = (await (await admin(server)(`/webhooks/${made.id}/deliveries`)).json()) as { items: WebhookAttempt[] }
      const first = log.items.at(-1)
      expect(
        (await admin(server)(`/webhooks/${made.id}/deliveries/${first?.deliveryId}/resend`, { method: 'POST', body: {} })).status,
      ).toBe(202)
      await receiver.until((got) => got.length === 6)
      expect(receiver.received[5]?.id).toBe(first?.webhookId)
    },
  )

  it.skipIf(!available)(
    'follows no redirect, reads at most 4 KB of an answer, and sends the failed deliveries since a moment again',
    async () => {
      const elsewhere = await startReceiver()
      receivers.push(elsewhere)
      const made = await endpoint({ events: ['signup.created'] })
      receiver.answer(() => ({ status: 302, headers: { location: elsewhere.url } }))
      await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'moved@example.com' }),
      })
      let log: WebhookAttempt[] = []
      for (let i = 0; i < 100 && log.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        log = ((await (await admin(server)(`/webhooks/${made.id}/deliveries`)).json()) as { items: WebhookAttempt[] }).items
      }
      expect(log[0]).toMatchObject({ status: 302, state: 'pending' })
      expect(elsewhere.connections).toBe(0)
      // A huge answer: 4 KB are read, 200 bytes kept, and the delivery is recorded all the same.
      receiver.answer(() => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(1_000_000) }))
      await receiver.until((got) => got.length === 1)
      for (let i = 0; i < 100 && log[0]?.state !== 'delivered'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        log = ((await (await admin(server)(`/webhooks/${made.id}/deliveries`)).json()) as { items: WebhookAttempt[] }).items
      }
      expect(log[0]).toMatchObject({ status: 200, state: 'delivered' })
      expect(log[0]?.response).toHaveLength(200)
      // Marked failed (as after its last retry), it is sent again on asking, under the same webhook-id.
      await runSql(server, sameSql("UPDATE webhook_deliveries SET state = 'failed' WHERE endpoint_id = ?"), [made.id])
      const again = await admin(server)(`/webhooks/${made.id}/resend`, {
        method: 'POST',
        body: { since: new Date(Date.now() - 60_000).toISOString() },
      })
      expect(await again.json()).toEqual({ resent: 1 })
      expect((await admin(server)(`/webhooks/${made.id}/resend`, { method: 'POST', body: { since: 'yesterday' } })).status).toBe(400)
      await receiver.until((got) => got.length === 2)
      expect(receiver.received[1]?.id).toBe(receiver.received[0]?.id)
    },
  )

  it.skipIf(!available)('refuses bad input naming the field, saving nothing', async () => {
    const strict = await startServer({ ADMIN_TOKEN }, kind)
    try {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ url: 'http://hooks.example.com/x', events: ['signup.created'] }, /^url: must start with https:\/\/ .*WEBHOOK_ALLOW_PRIVATE=1/],
        [{ url: 'https://127.0.0.1/x', events: ['signup.created'] }, /^url: not a public address .*WEBHOOK_ALLOW_PRIVATE=1/],
        [{ url: 'https://10.0.0.1/x', events: ['signup.created'] }, /^url: not a public address/],
        [{ url: 'https://169.254.169.254/latest/meta-data', events: ['signup.created'] }, /^url: not a public address/],
        [{ url: 'https://[::1]/x', events: ['signup.created'] }, /^url: not a public address/],
        [{ url: 'https://[::ffff:10.0.0.1]/x', events: ['signup.created'] }, /^url: not a public address/],
        [{ url: 'https://100.64.0.1/x', events: ['signup.created'] }, /^url: not a public address/],
        [{ url: 'https://localhost/x', events: ['signup.created'] }, /^url: localhost resolves to .*, not a public address/],
        [{ url: `https://hooks.example.com/${'a'.repeat(2048)}`, events: ['signup.created'] }, /^url: at most 2048 characters/],
        [{ url: 'https://user:pass@hooks.example.com/x', events: ['signup.created'] }, /^url: must not carry a user name or password/],
        [{ url: 'https://93.184.215.14/x', events: ['signup.made'] }, /^events: unknown event "signup.made"/],
        [{ url: 'https://93.184.215.14/x', events: [] }, /^events: at least one/],
      ]
      for (const [body, message] of cases) {
        const answer = await admin(strict)('/webhooks', { method: 'POST', body })
        expect(answer.status, JSON.stringify(body)).toBe(400)
        expect(((await answer.json()) as { message: string }).message).toMatch(message)
      }
      expect(await strict.app.store.webhooks.endpoints()).toEqual([])
      // An endpoint that got into the store by another way is still never connected to.
      const trap = await startReceiver()
      receivers.push(trap)
      await runSql(
        strict,
        sameSql(
          "INSERT INTO webhook_endpoints (url, events, secret) VALUES (?, '[\"signup.created\"]', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')",
        ),
        [trap.url.replace('http:', 'https:')],
      )
      await runSql(
        strict,
        sameSql(
          "INSERT INTO webhook_endpoints (url, events, secret) VALUES (?, '[\"signup.created\"]', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')",
        ),
        [trap.url.replace('http://127.0.0.1', 'https://localhost')],
      )
      await fetch(`${strict.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'trap@example.com' }),
      })
      const [first, second] = await strict.app.store.webhooks.endpoints()
      let attempts: WebhookAttempt[] = []
      for (let i = 0; i < 100 && attempts.length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        attempts = [
          ...((await (await admin(strict)(`/webhooks/${first?.id}/deliveries`)).json()) as { items: WebhookAttempt[] }).items,
          ...((await (await admin(strict)(`/webhooks/${second?.id}/deliveries`)).json()) as { items: WebhookAttempt[] }).items,
        ]
      }
      expect(attempts.map((a) => a.error).sort()).toEqual([
        expect.stringMatching(/^localhost resolves to 127\.0\.0\.1, not a public address/),
        'refused: not a public address',
      ])
      expect(trap.connections).toBe(0)
    } finally {
      await strict.close()
    }
  })
})

// The receiver is down for 3 s of real time under a schedule 500 times faster than the real one
// (10 ms, 0.6 s, 3.6 s, 14 s: two attempts or more each before it is back, the next within 4 s of
// its return). Both stores run at once, each with a server and a receiver of its own. Before issue
// 49 the outage was 30 s at the suite's scale (0.02), and the retry after it up to 12 s more.
const OUTAGE_MS = 3_000
describe('a receiver down for three retries', () => {
  const servers: TestServer[] = []
  const receivers: Receiver[] = []
  afterAll(async () => {
    for (const r of receivers.splice(0)) await r.close().catch(() => undefined)
    await Promise.allSettled(servers.splice(0).map((s) => s.close()))
  })

  // Both stores under CI; without TEST_DATABASE_URL, SQLite's alone (the layer says so loudly).
  it('keeps every event, then delivers each under its first webhook-id, on each store there is', async () => {
    const outage = async (kind: StoreKind) => {
      const server = await startServer({ ...SERVER_ENV, WEBHOOK_RETRY_SCALE: '0.002' }, kind)
      servers.push(server)
      const down = await startReceiver()
      receivers.push(down)
      const made = await createEndpoint(server, down.url, { events: ['signup.created'] })
      await down.close()
      for (let i = 0; i < 5; i++)
        expect(
          (
            await fetch(`${server.url}/rest/v1/waitlist`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email: `down${i}@example.com` }),
            })
          ).status,
          kind,
        ).toBe(201)
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS))
      const failed = (await (await admin(server)(`/webhooks/${made.id}/deliveries?limit=200`)).json()) as { items: WebhookAttempt[] }
      expect(failed.items.length, kind).toBeGreaterThanOrEqual(10) // two attempts or more each, all refused
      expect(
        failed.items.every((a) => a.status === null && a.error !== null),
        kind,
      ).toBe(true)
      const firstIds = new Set(failed.items.map((a) => a.webhookId))
      expect(firstIds.size, kind).toBe(5)
      const back = await startReceiver([made.secret], down.port)
      receivers.push(back)
      await back.until((got) => got.length >= 5)
      expect(new Set(back.received.map((r) => r.id)), kind).toEqual(firstIds)
    }
    // Each store's story runs to its end (none is left running into the next file when the other
    // fails), and every store that failed is named.
    const stores = STORES.filter((store) => store.available).map((store) => store.kind)
    const ended = await Promise.allSettled(stores.map((kind) => outage(kind)))
    const failures = ended.flatMap((result, i) =>
      result.status === 'rejected'
        ? [`${stores[i]}: ${result.reason instanceof Error ? result.reason.message : String(result.reason)}`]
        : [],
    )
    expect(failures).toEqual([])
  })
})

describe.each(STORES)('the disabled reasons migration on $kind', ({ kind, available }) => {
  it.skipIf(!available)('turns the English reasons kept before into codes, on the endpoints and in the owners’ waiting mails', async () => {
    const reasons = ['The endpoint answered 410 Gone', 'No delivery succeeded for 5 days']
    // The migrations before 021, with an owner, two endpoints the server disabled, and a mail to the owner about each.
    const { env, cleanup } = await earlierDatabase(kind, '021', async (query) => {
      const $ = (n: number) => (kind === 'sqlite' ? '?' : `$${n}`)
      const [owner] = await query(
        `INSERT INTO operators (email, role, user_handle, created_at) VALUES ('o@kennect.example', 'owner', 'h', ${$(1)}) RETURNING id`,
        [new Date().toISOString()],
      )
      for (const [i, reason] of reasons.entries()) {
        const url = `https://hooks.example/${i}`
        await query(
          `INSERT INTO webhook_endpoints (url, events, enabled, secret, disabled_reason) VALUES (${$(1)}, '["signup.created"]', ${kind === 'sqlite' ? 0 : false}, 'whsec_x', ${$(2)})`,
          [url, reason],
        )
        // (The values in the order of their places: SQLite's `?` are counted, not numbered.)
        const note =
          kind === 'sqlite'
            ? `json_object('url', ${$(3)}, 'reason', ${$(4)})`
            : `jsonb_build_object('url', ${$(3)}::text, 'reason', ${$(4)}::text)`
        await query(`INSERT INTO outbox (operator_id, message_key, note, kind) VALUES (${$(1)}, ${$(2)}, ${note}, 'webhook-disabled')`, [
          owner?.id,
          kind === 'sqlite' ? `key-${i}` : randomUUID(),
          url,
          reason,
        ])
      }
    })
    const server = await startServer({ ...env, ...SERVER_ENV, MAIL_RATE_PER_SECOND: '0' }, kind)
    try {
      const endpoints = (await (await admin(server)('/webhooks')).json()) as WebhookEndpoint[]
      expect(endpoints.map((e) => [e.url, e.disabledReason]).sort()).toEqual([
        ['https://hooks.example/0', 'gone'],
        ['https://hooks.example/1', 'failing'],
      ])
      const notes = await runSql(server, sameSql("SELECT note FROM outbox WHERE kind = 'webhook-disabled' ORDER BY id"))
      expect(notes.map((row) => (typeof row.note === 'string' ? JSON.parse(row.note) : row.note).reason)).toEqual(['gone', 'failing'])
    } finally {
      await server.close()
      await cleanup()
    }
  })
})
