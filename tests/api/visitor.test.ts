// The visitor's page over HTTP, on both stores: what a GET may not do, what a bad post gets, and
// what deleting leaves behind (nothing).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashToken } from '../../server/secrets'
import { joinWithLink } from '../support/page-links'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'

describe.each(STORES)("the visitor's page on $kind", ({ kind, available }) => {
  let server: TestServer
  // No mail goes anywhere: mails are written as files in a folder of the test's own.
  const mailDir = mkdtempSync(join(tmpdir(), 'kennect-visitor-mail-'))
  beforeAll(async () => {
    if (available) server = await startServer({ MAIL_DIR: mailDir, MAIL_RATE_PER_SECOND: '0' }, kind)
  })
  afterAll(async () => {
    await server?.close()
    rmSync(mailDir, { recursive: true, force: true })
  })

  /** Joins, and answers the token in the link of the mail that arrives (as a file) and the sign-up's id. */
  const signUp = (email: string) => joinWithLink(server, email)

  const post = (path: string, body: string, type = 'application/x-www-form-urlencoded') =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body, redirect: 'manual' })
  const stored = async (email: string) => (await server.app.store.list({ limit: 1, search: email }))[0]

  it.skipIf(!available)('changes nothing on a GET: opening the page or its unsubscribe link', async () => {
    const { token } = await signUp('looker@example.com')
    expect((await fetch(`${server.url}/me/${token}`)).status).toBe(200)
    const unsubscribeLink = await fetch(`${server.url}/me/${token}/unsubscribe`, { redirect: 'manual' })
    expect(unsubscribeLink.status).toBe(303)
    expect(unsubscribeLink.headers.get('location')).toBe(`/me/${token}#emails`)
    expect(await stored('looker@example.com')).toMatchObject({ confirmed_at: null, unsubscribed_at: null })
  })

  it.skipIf(!available)('answers an unknown or malformed token with a 404 page, and changes nothing', async () => {
    for (const token of ['x'.repeat(43), 'short', '..%2F..%2Fadmin']) {
      const page = await fetch(`${server.url}/me/${token}`)
      expect(page.status).toBe(404)
      expect(page.headers.get('content-type')).toContain('text/html')
      expect((await post(`/me/${token}/delete`, 'confirm=yes')).status).toBe(404)
    }
  })

  it.skipIf(!available)('refuses a profile the form cannot send with a 400, and keeps what was stored', async () => {
    const { token } = await signUp('profile@example.com')
    expect((await post(`/me/${token}/profile`, 'role=owner&breed=Beagle&country=fr')).status).toBe(303)
    expect(await stored('profile@example.com')).toMatchObject({ role: 'owner', breeds: ['Beagle'], country: 'FR' })
    const bad = [
      'role=admin',
      'country=XX',
      'country=XK',
      Array.from({ length: 6 }, (_, i) => `breed=Breed${i}`).join('&'),
      `breed=${'x'.repeat(61)}`,
      'breed=a%00b',
    ]
    for (const body of bad) {
      const answer = await post(`/me/${token}/profile`, body)
      expect(answer.status, body).toBe(400)
      expect(await answer.text()).toContain('could not be saved')
    }
    expect(await stored('profile@example.com')).toMatchObject({ role: 'owner', breeds: ['Beagle'], country: 'FR' })
    // Empty fields are "not said"; one breed twice in another case is one breed.
    expect((await post(`/me/${token}/profile`, 'role=&breed=beagle&breed=BEAGLE&breed=&country=')).status).toBe(303)
    expect(await stored('profile@example.com')).toMatchObject({ role: null, breeds: ['beagle'], country: null })
  })

  it.skipIf(!available)('unsubscribes on a multipart one-click POST too', async () => {
    const { token } = await signUp('multipart@example.com')
    const boundary = 'xyz'
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`
    const answer = await post(`/me/${token}/unsubscribe`, body, `multipart/form-data; boundary=${boundary}`)
    expect(answer.status).toBe(200)
    expect((await stored('multipart@example.com'))?.unsubscribed_at).toMatch(/^\d{4}-/)
  })

  it.skipIf(!available)('deletes in two steps, and leaves no row, mail or token behind', async () => {
    const { token, id } = await signUp('leaving@example.com')
    const first = await post(`/me/${token}/delete`, '')
    expect(first.status).toBe(200)
    expect(await stored('leaving@example.com')).toBeDefined()
    const second = await post(`/me/${token}/delete`, 'confirm=yes')
    expect(second.status).toBe(303)
    expect(second.headers.get('location')).toBe('/me/deleted?locale=en')
    expect(await stored('leaving@example.com')).toBeUndefined()
    expect(await server.app.store.visitors.byToken(hashToken(token))).toBeUndefined()
    await expect(server.app.store.visitors.data(id)).rejects.toThrow()
    expect((await fetch(`${server.url}/me/${token}`)).status).toBe(404)
    // The address may join again, as anyone may.
    expect((await server.app.store.add(row('leaving@example.com'))).inserted).toBe(true)
  })
})
