// Bounces, complaints and the suppression list (docs/decisions/019-suppression.md), over HTTP on both
// stores: reports through the admin API (by address or by Message-ID, an event id counted once), what
// each decides (a hard bounce and a complaint at once, soft bounces from three in a week), nothing
// ever mailed to a suppressed address while its join is answered as anyone's, the operators' list,
// and a deleted sign-up whose suppression outlives it as a hash alone.
import { afterEach, describe, expect, it } from 'vitest'
import type { SignupsPage } from '../../contract/admin-api'
import { API_SOURCE_MAX_LENGTH, type Suppression } from '../../contract/mail-events'
import { firstRecipient, localMails } from '../support/mailbox'
import { outboxSettled } from '../support/outbox'
import { pageTokenFor } from '../support/page-links'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { runSql, sameSql } from '../support/team'

const ADMIN_TOKEN = 'admin-token-for-the-suppression-tests-01'

describe.each(STORES)('suppression on $kind', ({ kind, available }) => {
  let server: TestServer
  afterEach(() => server?.close())
  const start = async () => {
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' }, kind)
  }
  const admin = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    fetch(`${server.url}/admin/api${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.token ?? ADMIN_TOKEN}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
  const joinAs = (email: string) =>
    fetch(`${server.url}/rest/v1/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify({ email }),
    })
  /** The mails written for an address (the files transport), by subject. */
  async function mailsTo(email: string): Promise<string[]> {
    return (await localMails(server.config.MAIL_DIR))
      .filter((mail) => firstRecipient(mail) === email.toLowerCase())
      .map((mail) => mail.subject ?? '')
  }
  const report = (body: unknown, token?: string) => admin('/mail/events', { method: 'POST', body, ...(token ? { token } : {}) })
  const list = async (q = '') =>
    ((await (await admin(`/suppressions${q ? `?q=${encodeURIComponent(q)}` : ''}`)).json()) as { items: Suppression[] }).items
  const editorToken = async () => {
    const made = await admin('/tokens', { method: 'POST', body: { name: 'bounce-script', role: 'editor' } })
    return ((await made.json()) as { token: string }).token
  }

  it.skipIf(!available)(
    'suppresses on a complaint at once and unsubscribes; the same event twice counts once; nothing is mailed again, the join answered as anyone’s',
    async () => {
      await start()
      expect((await joinAs('carol@example.com')).status).toBe(201)
      await pageTokenFor(server.config.MAIL_DIR, 'carol@example.com')
      const token = await editorToken()
      const complaint = { email: 'Carol@Example.com', type: 'complaint', source: 'fbl', eventId: 'fbl-1' }
      const first = await report(complaint, token)
      expect(first.status).toBe(201)
      expect(await first.json()).toEqual({ recorded: true, suppressed: true })
      const again = await report(complaint, token)
      expect(again.status).toBe(200)
      expect(await again.json()).toEqual({ recorded: false, suppressed: false })
      expect(await runSql(server, sameSql('SELECT count(*) AS n FROM mail_events'))).toEqual([{ n: kind === 'postgres' ? '1' : 1 }])
      expect(await list()).toMatchObject([{ email: 'carol@example.com', reason: 'complaint' }])
      // The operators' list of sign-ups says so, beside a sign-up with nothing of the kind.
      expect((await joinAs('dan@example.com')).status).toBe(201)
      const page = (await (await admin('/signups')).json()) as SignupsPage
      expect(page.items.map((row) => [row.email, row.mail_event, row.suppressed])).toEqual([
        ['carol@example.com', 'complaint', 'complaint'],
        ['dan@example.com', null, null],
      ])
      const [signup] = await server.app.store.list({ limit: 1, search: 'carol@' })
      expect(signup?.unsubscribed_at).toMatch(/^\d{4}-/)
      // Her join again, beside a stranger's: the same answer, byte for byte.
      const [hers, theirs] = [await joinAs('carol@example.com'), await joinAs('stranger@example.com')]
      expect([hers.status, await hers.text()]).toEqual([theirs.status, await theirs.text()])
      // Back on the list by her own page, and a campaign to everyone: never a mail to her.
      await server.app.store.visitors.setSubscribed(signup?.id ?? 0, true)
      await server.app.store.visitors.confirm(signup?.id ?? 0)
      const sent = await admin('/campaigns', { method: 'POST', body: { subject: 'Launch', markdown: 'Hello.', segment: {}, send: true } })
      expect(sent.status).toBe(201)
      await outboxSettled(server.app.store)
      expect(await mailsTo('carol@example.com')).toHaveLength(1) // the confirmation before she complained
      const states = await runSql(server, sameSql(`SELECT kind, state, last_error FROM outbox WHERE signup_id = ? ORDER BY id`), [
        signup?.id ?? 0,
      ])
      expect(states.map((row) => [row.kind, row.state, row.last_error])).toEqual([
        ['confirm', 'sent', null],
        ['campaign', 'failed', 'suppressed'],
      ])
    },
  )

  it.skipIf(!available)(
    'ties a bounce to the message’s original recipient by its Message-ID; soft bounces suppress from the third in a week',
    async () => {
      await start()
      expect((await joinAs('dora@example.com')).status).toBe(201)
      await pageTokenFor(server.config.MAIL_DIR, 'dora@example.com')
      const [key] = (await runSql(server, sameSql('SELECT message_key FROM outbox ORDER BY id LIMIT 1'))).map((row) =>
        String(row.message_key),
      )
      // A forwarded copy's final recipient is not whom the bounce is about: the Message-ID names Dora.
      const hard = await report({
        messageId: `<${key}@kennect.app>`,
        email: 'forwarded@elsewhere.example',
        type: 'hard-bounce',
        source: 'mta',
      })
      expect(await hard.json()).toEqual({ recorded: true, suppressed: true })
      expect(await list()).toEqual([expect.objectContaining({ email: 'dora@example.com', reason: 'hard-bounce' })])
      const dora = ((await (await admin('/signups?search=dora')).json()) as SignupsPage).items[0]
      expect([dora?.mail_event, dora?.suppressed]).toEqual(['hard-bounce', 'hard-bounce'])
      expect((await report({ messageId: '<nobody@kennect.app>', type: 'hard-bounce', source: 'mta' })).status).toBe(404)
      for (const bad of [
        { type: 'hard-bounce', source: 'x' },
        { email: 'not an address', type: 'complaint', source: 'x' },
        { email: 'a@b.co', type: 'spam', source: 'x' },
      ])
        expect((await report(bad)).status, JSON.stringify(bad)).toBe(400)
      // Soft: two are remembered, the third suppresses.
      for (const [i, suppressed] of [false, false, true].entries()) {
        const soft = await report({ email: 'eve@example.com', type: 'soft-bounce', source: 'mta', eventId: `soft-${i}` })
        expect(((await soft.json()) as { suppressed: boolean }).suppressed).toBe(suppressed)
      }
      // Eve has no sign-up here: her suppression is the hash alone.
      const listed = (await list()).map((s) => [s.email, s.reason])
      expect(listed).toHaveLength(2)
      expect(listed).toEqual(
        expect.arrayContaining([
          ['dora@example.com', 'hard-bounce'],
          [null, 'soft-bounce'],
        ]),
      )
    },
  )

  // Issue 39, item 8: a source of 37 to 40 characters passed the schema and broke the column's
  // limit once prefixed with `api:` (a 500).
  it.skipIf(!available)('refuses a source too long to keep with a 400 that names it, and records nothing', async () => {
    await start()
    expect((await joinAs('hal@example.com')).status).toBe(201)
    for (const length of [37, 40, 41]) {
      const answer = await report({ email: 'hal@example.com', type: 'soft-bounce', source: 's'.repeat(length), eventId: `e${length}` })
      expect(answer.status, `a source of ${length} characters`).toBe(400)
      expect(((await answer.json()) as { message: string }).message).toMatch(/source/)
    }
    expect(await runSql(server, sameSql('SELECT count(*) AS n FROM mail_events'))).toEqual([{ n: kind === 'postgres' ? '0' : 0 }])
    // The longest that fits is kept as it was given.
    const longest = 's'.repeat(API_SOURCE_MAX_LENGTH)
    expect((await report({ email: 'hal@example.com', type: 'soft-bounce', source: longest })).status).toBe(201)
    expect(await runSql(server, sameSql('SELECT source FROM mail_events'))).toEqual([{ source: `api:${longest}` }])
  })

  it.skipIf(!available)(
    'lets operators add, search, lift and download suppressions, audit-logged; a deleted sign-up leaves only the hash, and its address is still never mailed',
    async () => {
      await start()
      expect((await admin('/suppressions', { method: 'POST', body: { email: 'Fay@Example.com' } })).status).toBe(201)
      expect((await admin('/suppressions', { method: 'POST', body: { email: 'fay@example.com' } })).status).toBe(200)
      expect((await admin('/suppressions', { method: 'POST', body: { email: 'nope' } })).status).toBe(400)
      expect((await list('fay')).map((s) => [s.email, s.reason])).toEqual([['fay@example.com', 'manual']])
      expect(await list('nobody')).toEqual([])
      const csv = await (await admin('/suppressions.csv')).text()
      expect(csv.split('\r\n')[0]).toBe('email,reason,at')
      expect(csv).toContain('"fay@example.com","manual"')
      // Fay joins: no confirmation goes out, and her join is answered as anyone's.
      expect((await joinAs('fay@example.com')).status).toBe(201)
      await outboxSettled(server.app.store)
      expect(await mailsTo('fay@example.com')).toEqual([])
      expect((await admin('/suppressions/FAY%40example.com', { method: 'DELETE' })).status).toBe(200)
      expect((await admin('/suppressions/fay%40example.com', { method: 'DELETE' })).status).toBe(404)
      const audit = (await (await admin('/audit')).json()) as { items: { action: string }[] }
      expect(audit.items.map((item) => item.action)).toEqual(expect.arrayContaining(['suppression added', 'suppression lifted']))

      // Gus complains, then deletes his sign-up: his address is gone from the list, his hash stays.
      expect((await joinAs('gus@example.com')).status).toBe(201)
      const token = await pageTokenFor(server.config.MAIL_DIR, 'gus@example.com')
      await report({ email: 'gus@example.com', type: 'complaint', source: 'fbl' })
      const data = (await (await fetch(`${server.url}/me/${token}/data.json`)).json()) as { mail_events: { type: string }[] }
      expect(data.mail_events.map((e) => e.type)).toEqual(['complaint'])
      const deleted = await fetch(`${server.url}/me/${token}/delete`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'confirm=yes',
        redirect: 'manual',
      })
      expect(deleted.status).toBe(303)
      expect(await list()).toEqual([expect.objectContaining({ email: null, reason: 'complaint' })])
      const kept = await runSql(server, sameSql('SELECT * FROM suppressions'))
      expect(JSON.stringify(kept)).not.toContain('gus')
      expect(await runSql(server, sameSql('SELECT count(*) AS n FROM mail_events'))).toEqual([{ n: kind === 'postgres' ? '0' : 0 }])
      // He signs up again: still never mailed.
      const before = (await mailsTo('gus@example.com')).length
      expect((await joinAs('gus@example.com')).status).toBe(201)
      await outboxSettled(server.app.store)
      expect(await mailsTo('gus@example.com')).toHaveLength(before)
      // …and the list names him again, as his sign-up shows its mark.
      expect((await list('gus')).map((s) => [s.email, s.reason])).toEqual([['gus@example.com', 'complaint']])
      const gus = ((await (await admin('/signups?search=gus')).json()) as SignupsPage).items[0]
      expect(gus?.suppressed).toBe('complaint')
    },
  )
})
