// The demand map and campaigns over the admin API, on both stores, mailing a real SMTP server:
// who is counted, who is invited (confirmed only by default, unsubscribed never), a draft's preview
// and test, a send that nobody gets twice however often it is pressed, pause and resume.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { CampaignProgress, CampaignWritten, Segments } from '../../contract/campaigns'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { outboxSettled } from '../support/outbox'
import { startSmtp, type TestSmtp } from '../support/smtp'
import { STORES } from '../support/stores'
import { profileOf, type TestProfile } from '../support/profile'

const TOKEN = 'campaign-admin-token-0123456789'

interface Person {
  email: string
  confirmed?: boolean
  unsubscribed?: boolean
  profile?: TestProfile
}

const PEOPLE: Person[] = [
  { email: 'breeder.gb@example.com', confirmed: true, profile: { role: 'breeder', breeds: ['Labrador Retriever'], country: 'GB' } },
  { email: 'owner.gb@example.com', confirmed: true, profile: { role: 'owner', breeds: ['labrador retriever', 'Beagle'], country: 'GB' } },
  { email: 'breeder.fr@example.com', confirmed: true, profile: { role: 'breeder', breeds: ['Beagle'], country: 'FR' } },
  { email: 'unconfirmed.breeder.gb@example.com', profile: { role: 'breeder', breeds: [], country: 'GB' } },
  {
    email: 'gone.breeder.gb@example.com',
    confirmed: true,
    unsubscribed: true,
    profile: { role: 'breeder', breeds: ['Beagle'], country: 'GB' },
  },
  { email: 'quiet@example.com', confirmed: true },
]

describe.each(STORES)('campaigns on $kind', ({ kind, available }) => {
  let smtp: TestSmtp
  let server: TestServer
  beforeAll(async () => {
    if (!available) return
    smtp = await startSmtp()
    server = await startServer(
      { ADMIN_TOKEN: TOKEN, SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0', APP_STORE_URL: 'https://apps.apple.com/app/id123' },
      kind,
    )
    const { store } = server.app
    for (const person of PEOPLE) {
      await store.add(row(person.email))
      const [listed] = await store.list({ limit: 1, search: person.email })
      const id = listed?.id ?? 0
      if (person.confirmed) await store.visitors.confirm(id)
      if (person.profile) await store.visitors.saveProfile(id, profileOf(person.profile))
      if (person.unsubscribed) await store.visitors.setSubscribed(id, false)
    }
    await settled()
    smtp.received.length = 0 // the confirmation mails of the sign-ups above
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
  })
  afterEach(() => {
    if (available) smtp.received.length = 0
  })

  const settled = () => outboxSettled(server.app.store)

  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server.url}/admin/api${path}`, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${TOKEN}`, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
  const campaign = (
    segment: object,
    send: boolean,
    markdown = 'The app is out: [get it]({{app_store_url}}). [Your page]({{my_page_url}}).',
  ) => api('/campaigns', { method: 'POST', body: { subject: 'Kennect is here', markdown, segment, send } })

  it.skipIf(!available)('maps who waits where: role × country, breeds with their breeders and owners, unsubscribed left out', async () => {
    const segments = (await (await api('/segments')).json()) as Segments
    expect(segments).toMatchObject({ total: 6, confirmed: 5, unsubscribed: 1 })
    expect(segments.byRoleCountry).toContainEqual({ role: 'breeder', country: 'GB', confirmed: 1, unconfirmed: 1 })
    expect(segments.byRoleCountry).toContainEqual({ role: 'owner', country: 'GB', confirmed: 1, unconfirmed: 0 })
    expect(segments.byRoleCountry).toContainEqual({ role: null, country: null, confirmed: 1, unconfirmed: 0 })
    expect(segments.byCountry[0]).toEqual({
      country: 'GB',
      breeders: 2,
      owners: 1,
      clubs: 0,
      enthusiasts: 0,
      unsaid: 0,
      total: 3,
      ios: 0,
      android: 0,
      claimed: 0,
    })
    expect(segments.topBreeds.map((b) => [b.breed.toLowerCase(), b.breeders, b.owners, b.total])).toEqual([
      ['beagle', 1, 1, 2],
      ['labrador retriever', 1, 1, 2],
    ])
  })

  it.skipIf(!available)('refuses a bad campaign with a 400 naming the field, and makes nothing', async () => {
    const before = ((await (await api('/campaigns')).json()) as unknown[]).length
    const cases: [object, RegExp][] = [
      [{ markdown: 'x', segment: {}, send: false }, /subject/],
      [{ subject: 'S', markdown: 'x', segment: { roles: ['admin'] }, send: false }, /segment\/roles\/0/],
      [{ subject: 'S', markdown: 'x', segment: { countries: ['XK'] }, send: false }, /segment\/countries\/0/],
      [{ subject: 'S', markdown: 'x', segment: { since: 'yesterday' }, send: false }, /segment\/since/],
      [{ subject: 'S', markdown: 'x', segment: { since: '2026-12-01', until: '2026-11-01' }, send: false }, /segment\/until/],
      [{ subject: 'S', markdown: 'Hi {{first_name}}', segment: {}, send: false }, /markdown: unknown placeholder \{\{first_name\}\}/],
      [{ subject: 'S', markdown: 'x', segment: {}, send: 'soon' }, /send/],
      [{ subject: 'S', markdown: 'x', segment: {}, send: false, extra: 1 }, /extra|additional/],
    ]
    for (const [body, message] of cases) {
      const answer = await api('/campaigns', { method: 'POST', body })
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(((await answer.json()) as { message: string }).message).toMatch(message)
    }
    expect(((await (await api('/campaigns')).json()) as unknown[]).length).toBe(before)
  })

  it.skipIf(!available)('refuses a date no calendar has and a free text with spaces at its ends, naming the field', async () => {
    const before = ((await (await api('/campaigns')).json()) as unknown[]).length
    const cases: [object, RegExp][] = [
      [{ since: '2026-13-45' }, /segment\/since: not a date there is/],
      [{ breeds: [' whippet'] }, /segment\/breeds\/0/],
      [{ sources: ['news\nletter'] }, /segment\/sources\/0/],
      [{ sides: ['stud', 'king'] }, /segment\/sides\/1/],
      [{ readyBreeds: 'yes' }, /segment\/readyBreeds/],
    ]
    for (const [segment, message] of cases) {
      const answer = await campaign(segment, false)
      expect(answer.status, JSON.stringify(segment)).toBe(400)
      expect(((await answer.json()) as { message: string }).message).toMatch(message)
    }
    expect(((await (await api('/campaigns')).json()) as unknown[]).length).toBe(before)
  })

  it.skipIf(!available)('saves a segment one way: choices in their order, nothing empty or off', async () => {
    const made = (await (
      await campaign(
        { roles: ['owner', 'breeder'], countries: ['GB', 'FR'], sides: ['seeker', 'stud'], readyBreeds: false, locales: [] },
        false,
      )
    ).json()) as { id: number }
    const opened = (await (await api(`/campaigns/${made.id}/draft`)).json()) as CampaignWritten
    expect(opened.segment).toEqual({ roles: ['breeder', 'owner'], countries: ['GB', 'FR'], sides: ['stud', 'seeker'] })
    expect((await api(`/campaigns/${made.id}`, { method: 'DELETE' })).status).toBe(204)
  })

  it.skipIf(!available)(
    'counts and renders a draft, sends a test, then sends each recipient one mail however often Send is pressed',
    async () => {
      const draft = (await (await campaign({ roles: ['breeder', 'owner'], countries: ['GB'] }, false)).json()) as {
        id: number
        recipients: number
        html: string
        text: string
      }
      expect(draft.recipients).toBe(2) // unconfirmed and unsubscribed breeders in GB left out
      expect(draft.text).toContain('https://apps.apple.com/app/id123')
      expect(draft.html).toContain('href="https://apps.apple.com/app/id123"')
      expect(draft.html).toContain('/me/your-own-link')
      expect(((await (await api(`/campaigns/${draft.id}`)).json()) as CampaignProgress).status).toBe('draft')

      expect((await api(`/campaigns/${draft.id}/test`, { method: 'POST', body: { email: 'team@example.com' } })).status).toBe(200)
      const [test] = await smtp.waitFor(1)
      expect(test?.subject).toBe('[Test] Kennect is here')
      smtp.received.length = 0

      // Two operators press Send together, then one presses it again.
      const presses = await Promise.all([
        api(`/campaigns/${draft.id}/send`, { method: 'POST' }),
        api(`/campaigns/${draft.id}/send`, { method: 'POST' }),
      ])
      expect(presses.map((p) => p.status)).toEqual([200, 200])
      expect((await api(`/campaigns/${draft.id}/send`, { method: 'POST' })).status).toBe(200)
      await smtp.waitFor(2)
      await settled()
      expect(smtp.received.map((m) => m.to).sort()).toEqual(['breeder.gb@example.com', 'owner.gb@example.com'])
      const mine = smtp.received.find((m) => m.to === 'owner.gb@example.com')
      expect(mine?.parsed.text).toMatch(/\/me\/[A-Za-z0-9_-]{43}\)/) // the recipient's own link
      expect(mine?.parsed.headerLines.some((l) => l.key === 'list-unsubscribe-post')).toBe(true)
      const progress = (await (await api(`/campaigns/${draft.id}`)).json()) as CampaignProgress
      expect(progress).toMatchObject({
        status: 'finished',
        recipients: 2,
        queued: 0,
        failed: 0,
        delivery: { sent: 2, delivered: 2, hardBounced: 0 },
      })
    },
  )

  it.skipIf(!available)('sends at once with send: true, to unconfirmed addresses too when asked, never to unsubscribed ones', async () => {
    const answer = await campaign({ roles: ['breeder'], countries: ['GB'], includeUnconfirmed: true }, true, 'Hello breeders.')
    expect(answer.status).toBe(201)
    expect(await answer.json()).toMatchObject({ recipients: 2 })
    await smtp.waitFor(2)
    await settled()
    expect(smtp.received.map((m) => m.to).sort()).toEqual(['breeder.gb@example.com', 'unconfirmed.breeder.gb@example.com'])
  })

  it.skipIf(!available)('selects by breed in any letter case, and by source and date', async () => {
    expect(await (await campaign({ breeds: ['BEAGLE'] }, false, 'x')).json()).toMatchObject({ recipients: 2 })
    expect(await (await campaign({ since: '2999-01-01' }, false, 'x')).json()).toMatchObject({ recipients: 0 })
    expect(await (await campaign({ sources: ['nowhere'] }, false, 'x')).json()).toMatchObject({ recipients: 0 })
  })

  it.skipIf(!available)('opens, changes and deletes a draft; a preview of an open draft makes no new one; a sent one stays', async () => {
    const before = ((await (await api('/campaigns')).json()) as CampaignProgress[]).length
    const made = (await (await campaign({ countries: ['GB'] }, false)).json()) as { id: number; recipients: number }
    expect(made.recipients).toBe(2)
    // Opened: as written, counted and rendered now.
    const opened = await api(`/campaigns/${made.id}/draft`)
    expect(opened.status).toBe(200)
    expect(await opened.json()).toMatchObject({
      id: made.id,
      subject: { en: 'Kennect is here' },
      segment: { countries: ['GB'] },
      recipients: 2,
    })
    // Changed (twice, as two previews would): the same draft, with the new words, segment and count.
    for (const country of ['FR', 'GB']) {
      const changed = await api(`/campaigns/${made.id}`, {
        method: 'PUT',
        body: {
          subject: { en: 'Kennect is nearly here', de: 'Kennect kommt' },
          markdown: { en: 'Soon.', de: 'Bald.' },
          segment: { countries: [country] },
        },
      })
      expect(changed.status).toBe(200)
      expect(await changed.json()).toMatchObject({
        id: made.id,
        recipients: country === 'FR' ? 1 : 2,
        previews: { de: { subject: 'Kennect kommt' } },
      })
    }
    expect(((await (await api('/campaigns')).json()) as CampaignProgress[]).length).toBe(before + 1)
    expect(await (await api(`/campaigns/${made.id}/draft`)).json()).toMatchObject({
      subject: { en: 'Kennect is nearly here', de: 'Kennect kommt' },
      markdown: { en: 'Soon.', de: 'Bald.' },
    })
    // Bad input changes nothing.
    const refused = await api(`/campaigns/${made.id}`, { method: 'PUT', body: { subject: '', markdown: 'x', segment: {} } })
    expect(refused.status).toBe(400)
    expect(await (await api(`/campaigns/${made.id}/draft`)).json()).toMatchObject({ subject: { en: 'Kennect is nearly here' } })
    // Deleted, once; with its line in the audit log.
    expect((await api(`/campaigns/${made.id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await api(`/campaigns/${made.id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await api(`/campaigns/${made.id}/draft`)).status).toBe(404)
    expect(((await (await api('/campaigns')).json()) as CampaignProgress[]).length).toBe(before)
    const log = (await (await api('/audit?limit=20')).json()) as { items: { action: string; target: string | null }[] }
    expect(log.items).toContainEqual(expect.objectContaining({ action: 'campaign draft deleted', target: `campaign ${made.id}` }))
    // A campaign sent is no draft: not opened, changed nor deleted.
    const sent = (await (await campaign({ countries: ['FR'] }, true)).json()) as { id: number }
    await settled()
    expect((await api(`/campaigns/${sent.id}/draft`)).status).toBe(409)
    const change = await api(`/campaigns/${sent.id}`, { method: 'PUT', body: { subject: 'x', markdown: 'y', segment: {} } })
    expect(change.status).toBe(409)
    expect((await api(`/campaigns/${sent.id}`, { method: 'DELETE' })).status).toBe(409)
    expect((await api(`/campaigns/${sent.id}`)).status).toBe(200)
  })

  it.skipIf(!available)('answers 404 for a campaign that does not exist', async () => {
    expect((await api('/campaigns/99999')).status).toBe(404)
    expect((await api('/campaigns/99999/send', { method: 'POST' })).status).toBe(404)
    expect((await api('/campaigns/99999/pause', { method: 'POST' })).status).toBe(404)
  })
})

describe.each(STORES)('a paused campaign on $kind', ({ kind, available }) => {
  it.skipIf(!available)('holds its mails, and sends the rest once resumed', async () => {
    const smtp = await startSmtp()
    // One mail a second, so there is something left to hold.
    const server = await startServer({ ADMIN_TOKEN: TOKEN, SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '1' }, kind).catch(
      async (error: unknown) => {
        await smtp.stop()
        throw error
      },
    )
    try {
      for (let i = 0; i < 4; i++) {
        await server.app.store.add(row(`paused-${i}@example.com`))
        const [listed] = await server.app.store.list({ limit: 1, search: `paused-${i}@` })
        await server.app.store.visitors.confirm(listed?.id ?? 0)
      }
      await smtp.waitFor(4) // the confirmation mails
      for (let i = 0; i < 50 && (await server.app.store.outbox.counts()).sent < 4; i++) await new Promise((r) => setTimeout(r, 50))
      smtp.received.length = 0
      const api = (path: string, body?: unknown) =>
        fetch(`${server.url}/admin/api${path}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      const { id } = (await (
        await api('/campaigns', { subject: 'Held', markdown: 'Held, then sent.', segment: {}, send: true })
      ).json()) as { id: number }
      await smtp.waitFor(1)
      const paused = (await (await api(`/campaigns/${id}/pause`)).json()) as CampaignProgress
      expect(paused.status).toBe('paused')
      const atPause = smtp.received.length
      await new Promise((resolve) => setTimeout(resolve, 2_500))
      expect(smtp.received.length).toBeLessThanOrEqual(atPause + 1) // one may have been on its way
      const held = smtp.received.length
      expect(held).toBeLessThan(4)
      expect(((await (await api(`/campaigns/${id}/resume`)).json()) as CampaignProgress).status).toBe('sending')
      await smtp.waitFor(4)
      expect(new Set(smtp.received.map((m) => m.to)).size).toBe(4)
    } finally {
      await server.close()
      await smtp.stop()
    }
  })
})
