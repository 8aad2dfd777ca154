import { afterEach, describe, expect, it } from 'vitest'
import { visitorContent } from '../../web/visitor/content'
import { joinWithLink } from '../support/page-links'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'

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

describe.each(STORES)("the visitor's page when the store stops answering, on $kind", ({ kind, available }) => {
  it.skipIf(!available)('answers every form and the page itself with a page that says to try again, never JSON', async () => {
    server = await startServer({}, kind)
    const { token } = await joinWithLink(server, 'ada@example.com')
    await server.app.store.close()
    const words = visitorContent('en').gone.unavailable
    const form = (path: string, body = '') =>
      fetch(`${server?.url}/me/${token}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
      })
    for (const answer of [
      await fetch(`${server.url}/me/${token}`),
      await form('/confirm'),
      await form('/profile', 'role=breeder&country=FR&breed-1=Pug&side-1=stud'),
      await form('/phone', 'platform=ios'),
      await form('/unsubscribe'),
      await form('/resubscribe'),
      await form('/language', 'locale=de'),
    ]) {
      expect(answer.status).toBe(503)
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/)
      expect(answer.headers.get('retry-after')).toBe('5')
      const page = await answer.text()
      expect(page).toContain(words.heading)
      expect(page).toContain(words.text)
    }
    // The download stays the API's answer.
    const download = await fetch(`${server.url}/me/${token}/data.json`)
    expect(download.status).toBe(503)
    expect(download.headers.get('content-type')).toMatch(/^application\/json/)
  })
})
