// Invite links (docs/decisions/015-growth.md), over HTTP on both stores: a confirmed sign-up's code,
// sign-ups made through it on both ways in, credit only on confirmation and never for one's own
// mailbox, a stopped inviter or past 20 a day, answers that never tell a code apart, and what the
// team sees. Each test has a fresh server: credits are counted per inviter and per day.
import { afterEach, describe, expect, it } from 'vitest'
import { DAILY_INVITE_CREDITS } from '../../contract/growth'
import { formTokens } from '../../server/waitlist/form-token'
import { englishVisitorContent as visitorContent } from '../../web/visitor/content'
import { confirmOnPage, joinWithLink } from '../support/page-links'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'

const ADMIN_TOKEN = 'admin-token-for-the-invite-tests-0123'
const FORM_SECRET = 'form-secret-for-the-invite-tests-0123456789'
const SITE_URL = 'https://kennect.example'

describe.each(STORES)('invite links on $kind', ({ kind, available }) => {
  let server: TestServer
  afterEach(() => server?.close())
  const start = async () => {
    server = await startServer({ ADMIN_TOKEN, FORM_SECRET, SITE_URL, MAIL_RATE_PER_SECOND: '0' }, kind)
    return server
  }
  const admin = (path: string) => fetch(`${server.url}/admin/api${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  const page = async (token: string) => (await fetch(`${server.url}/me/${token}`)).text()
  const signUp = async (email: string) => (await server.app.store.list({ limit: 1, search: email }))[0]
  /** A confirmed inviter: their page link, id and code. */
  async function inviter(email: string) {
    const { token, id } = await joinWithLink(server, email)
    await confirmOnPage(server, token)
    const code = (await server.app.store.visitors.data(id)).invite.code
    if (!code) throw new Error('no invite code after confirming')
    return { token, id, code }
  }
  const noScriptJoin = (email: string, pageUrl: string) =>
    fetch(`${server.url}/join`, {
      method: 'POST',
      body: new URLSearchParams({ email, token: formTokens(FORM_SECRET, 0).issue(Date.now() - 10_000) }),
      headers: { referer: pageUrl },
      redirect: 'manual',
    })

  it.skipIf(!available)('gives a confirmed sign-up its link, and credits the invitees who confirm', async () => {
    await start()
    const ada = await joinWithLink(server, 'ada@example.com')
    expect(await page(ada.token)).toContain(visitorContent.invite.confirmFirst)
    expect((await server.app.store.visitors.data(ada.id)).invite.code).toBeNull()
    await confirmOnPage(server, ada.token)
    const { code } = (await server.app.store.visitors.data(ada.id)).invite
    // 128 random bits, URL-safe; nothing of the address in it.
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/)
    const link = `${SITE_URL}/?invite=${code}`
    expect(await page(ada.token)).toContain(link)

    // B through the no-script form (the page's URL comes as the Referer), C through the insert.
    const b = await noScriptJoin('bea@example.com', `${server.url}/?invite=${code}&utm_source=friends`)
    expect(b.headers.get('location')).toBe('/#waitlist-joined')
    const c = await joinWithLink(server, 'cem@example.com', { invite: code })
    expect(await signUp('bea@example.com')).toMatchObject({ invited_by: ada.id, utm_source: 'friends' })
    expect(await signUp('cem@example.com')).toMatchObject({ invited_by: ada.id })
    expect(await server.app.store.visitors.invites(ada.id)).toEqual({ joined: 2, confirmed: 0 })

    // Only a confirmation counts: B confirms, C does not.
    const bea = await joinWithLink(server, 'bea@example.com')
    await confirmOnPage(server, bea.token)
    await confirmOnPage(server, bea.token) // twice is once
    expect(await server.app.store.visitors.invites(ada.id)).toEqual({ joined: 2, confirmed: 1 })
    expect(await page(ada.token)).toContain(visitorContent.invite.counts(2, 1))
    expect(await page(c.token)).toContain(visitorContent.invite.confirmFirst)

    // The download holds the code and the counts, never who.
    const data = (await (await fetch(`${server.url}/me/${ada.token}/data.json`)).json()) as { invite: unknown }
    expect(data.invite).toEqual({ code, joined: 2, confirmed: 1 })
    expect(JSON.stringify(data)).not.toContain('bea@')

    // The team sees who brought whom, in the list, the export and the demand map.
    const list = (await (await admin('/signups')).json()) as {
      items: { email: string; invited_by: number | null; invites_confirmed: number }[]
    }
    expect(list.items.find((i) => i.email === 'ada@example.com')).toMatchObject({ invited_by: null, invites_confirmed: 1 })
    expect(list.items.find((i) => i.email === 'cem@example.com')).toMatchObject({ invited_by: ada.id, invites_confirmed: 0 })
    const csv = await (await admin('/export.csv')).text()
    expect(csv.split('\r\n')[0]).toMatch(/,invited_by,invites_confirmed,locale,platform,claimed_at,partner$/)
    expect(csv).toContain(`"bea@example.com"`)
    expect(csv.split('\r\n').find((line) => line.includes('"ada@example.com"'))).toMatch(/,,"1","en","other",,$/)
    const segments = (await (await admin('/segments')).json()) as { topInviters: unknown[] }
    expect(segments.topInviters).toEqual([{ id: ada.id, email: 'ada@example.com', joined: 2, confirmed: 1 }])
  })

  it.skipIf(!available)("never credits the inviter's own mailbox under another spelling", async () => {
    await start()
    const ada = await inviter('Ada.Lovelace@gmail.com')
    for (const alias of ['ADA.LOVELACE+dogs@gmail.com', 'adalovelace@googlemail.com', 'a.d.a.lovelace+x@GoogleMail.com']) {
      const own = await joinWithLink(server, alias, { invite: ada.code })
      await confirmOnPage(server, own.token)
      expect(await signUp(alias)).toMatchObject({ invited_by: null })
    }
    // Another person at the same provider is someone else.
    const friend = await joinWithLink(server, 'ada.lovelace.friend@gmail.com', { invite: ada.code })
    await confirmOnPage(server, friend.token)
    expect(await server.app.store.visitors.invites(ada.id)).toEqual({ joined: 1, confirmed: 1 })
  })

  it.skipIf(!available)('answers an unknown, malformed or deleted code byte for byte as no code, and credits nothing', async () => {
    await start()
    const gone = await inviter('gone@example.com')
    const kept = await inviter('kept@example.com')
    const before = await joinWithLink(server, 'early@example.com', { invite: gone.code })
    expect(await signUp('early@example.com')).toMatchObject({ invited_by: gone.id })
    const removed = await fetch(`${server.url}/admin/api/signups?email=gone@example.com`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(await removed.json()).toEqual({ removed: true })
    // The deleted inviter's code goes with it, and so does the link of those it brought.
    expect(await signUp('early@example.com')).toMatchObject({ invited_by: null })
    await confirmOnPage(server, before.token)

    /** The answer's bytes that are the same for every request of one kind (not its date or request id). */
    const answerOf = async (body: unknown) => {
      const answer = await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      const headers = [...answer.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id')
      return { status: answer.status, headers, body: await answer.text() }
    }
    const plain = await answerOf({ email: 'plain@example.com' })
    expect(plain.status).toBe(201)
    const codes: unknown[] = [
      gone.code,
      'x'.repeat(64),
      'x'.repeat(65),
      'not a code',
      'bad/../code',
      '',
      42,
      null,
      { code: kept.code },
      'a\u0000b',
    ]
    for (const [i, invite] of codes.entries()) {
      expect(await answerOf({ email: `odd${i}@example.com`, invite }), `invite ${JSON.stringify(invite)}`).toEqual(plain)
      expect(await signUp(`odd${i}@example.com`)).toMatchObject({ invited_by: null })
    }
    // The no-script form the same: joined, nothing linked.
    const nojs = await noScriptJoin('odd-nojs@example.com', `${server.url}/?invite=${'y'.repeat(65)}`)
    expect(nojs.headers.get('location')).toBe('/#waitlist-joined')
    expect(await signUp('odd-nojs@example.com')).toMatchObject({ invited_by: null })
    expect(await server.app.store.visitors.invites(kept.id)).toEqual({ joined: 0, confirmed: 0 })
  })

  it.skipIf(!available)('credits an inviter who stopped e-mails nothing, and at most 20 a UTC day', async () => {
    await start()
    const quiet = await inviter('quiet@example.com')
    const joined = await joinWithLink(server, 'to-quiet@example.com', { invite: quiet.code })
    await fetch(`${server.url}/me/${quiet.token}/unsubscribe`, { method: 'POST', redirect: 'manual' })
    await confirmOnPage(server, joined.token)
    expect(await server.app.store.visitors.invites(quiet.id)).toEqual({ joined: 1, confirmed: 0 })

    const busy = await inviter('busy@example.com')
    const invitees = DAILY_INVITE_CREDITS + 3
    const store = server.app.store
    await Promise.all(Array.from({ length: invitees }, (_, i) => store.add(row(`friend${i}@example.com`, { invite: busy.code }))))
    const ids = (await store.list({ limit: 100, search: 'friend' })).map((r) => r.id)
    expect(ids).toHaveLength(invitees)
    // Confirmed all at once: the limit holds however they race.
    await Promise.all(ids.map((id) => store.visitors.confirm(id)))
    expect(await store.visitors.invites(busy.id)).toEqual({ joined: invitees, confirmed: DAILY_INVITE_CREDITS })
    expect((await signUp('busy@example.com'))?.invites_confirmed).toBe(DAILY_INVITE_CREDITS)
    // The page says the credited number: the inviter is never told which were not counted.
    expect(await page(busy.token)).toContain(visitorContent.invite.counts(invitees, DAILY_INVITE_CREDITS))
  })

  it.skipIf(!available)('lets a campaign go to those whose links brought at least N confirmed sign-ups', async () => {
    await start()
    const one = await inviter('one@example.com')
    const two = await inviter('two@example.com')
    for (const [email, code] of [
      ['a1@example.com', one.code],
      ['b1@example.com', two.code],
      ['b2@example.com', two.code],
    ] as const) {
      const joined = await joinWithLink(server, email, { invite: code })
      await confirmOnPage(server, joined.token)
    }
    const draft = async (invitedAtLeast: number) => {
      const answer = await fetch(`${server.url}/admin/api/campaigns`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: 'Thank you', markdown: 'Hello', segment: { invitedAtLeast }, send: false }),
      })
      return ((await answer.json()) as { recipients: number }).recipients
    }
    expect([await draft(0), await draft(1), await draft(2), await draft(3)]).toEqual([5, 2, 1, 0])
    const refused = await fetch(`${server.url}/admin/api/campaigns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'x', markdown: 'x', segment: { invitedAtLeast: -1 }, send: false }),
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { message: string }).message).toContain('invitedAtLeast')
  })
})
