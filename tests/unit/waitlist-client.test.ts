import { afterEach, describe, expect, it, vi } from 'vitest'
import { joinWaitlist, WAITLIST_TIMEOUT_MS } from '../../web/lib/waitlist-client'

// The client against a fake fetch: its job is to turn every kind of answer into ok / not ok.
// The same client runs against the real server in the browser tests.
type Call = { url: string; init: RequestInit }

function fakeFetch(answer: () => Promise<Response>) {
  const calls: Call[] = []
  const fetch = async (url: string | URL | Request, init: RequestInit = {}) => {
    calls.push({ url: String(url), init })
    return answer()
  }
  return { calls, fetch: fetch as typeof globalThis.fetch }
}

const site = { waitlistUrl: 'https://project.supabase.co', anonKey: 'anon-key' }

describe('joinWaitlist', () => {
  afterEach(() => vi.useRealTimers())

  it('posts one row to /rest/v1/waitlist with the anon key, as supabase-js does', async () => {
    const { calls, fetch } = fakeFetch(async () => new Response(null, { status: 201 }))
    await expect(joinWaitlist('ada@example.com', {}, { site, fetch })).resolves.toEqual({ ok: true })
    expect(calls).toHaveLength(1)
    const [call] = calls
    expect(call?.url).toBe('https://project.supabase.co/rest/v1/waitlist')
    expect(call?.init.method).toBe('POST')
    expect(call?.init.body).toBe('{"email":"ada@example.com"}')
    expect(call?.init.headers).toMatchObject({
      apikey: 'anon-key',
      Authorization: 'Bearer anon-key',
      'Content-Type': 'application/json',
      Prefer: 'return=minimal',
    })
  })

  it('sends the attribution it is given beside the address', async () => {
    const { calls, fetch } = fakeFetch(async () => new Response(null, { status: 201 }))
    await joinWaitlist('a@b.co', { utm_source: 'dogshow', referrer: 'club.example' }, { site, fetch })
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ email: 'a@b.co', utm_source: 'dogshow', referrer: 'club.example' })
  })

  it('sends no key and uses the page origin when none is configured', async () => {
    const { calls, fetch } = fakeFetch(async () => new Response(null, { status: 201 }))
    await joinWaitlist('a@b.co', {}, { site: { waitlistUrl: '', anonKey: '' }, fetch })
    expect(calls[0]?.url).toBe('/rest/v1/waitlist')
    expect(calls[0]?.init.headers).not.toHaveProperty('apikey')
  })

  it('sends the address alone again when the backend does not know an optional column (a project not yet migrated)', async () => {
    const answers = [
      Response.json({ code: 'PGRST204', message: "Could not find the 'invite' column of 'waitlist' in the schema cache" }, { status: 400 }),
    ]
    const { calls, fetch } = fakeFetch(async () => answers.shift() ?? new Response(null, { status: 201 }))
    await expect(joinWaitlist('a@b.co', { invite: 'Ab-3_xY9', utm_source: 'x' }, { site, fetch })).resolves.toEqual({ ok: true })
    expect(calls.map((call) => JSON.parse(String(call.init.body)))).toEqual([
      { email: 'a@b.co', invite: 'Ab-3_xY9', utm_source: 'x' },
      { email: 'a@b.co' },
    ])
    // With nothing but the address to begin with, an unknown column is a failure, and nothing is sent twice.
    const alone = fakeFetch(async () => Response.json({ code: 'PGRST204' }, { status: 400 }))
    await expect(joinWaitlist('a@b.co', {}, { site, fetch: alone.fetch })).resolves.toEqual({ ok: false })
    expect(alone.calls).toHaveLength(1)
  })

  it('treats a reported duplicate (23505) as success', async () => {
    const { fetch } = fakeFetch(async () => Response.json({ code: '23505', message: 'duplicate key' }, { status: 409 }))
    await expect(joinWaitlist('a@b.co', {}, { site, fetch })).resolves.toEqual({ ok: true })
  })

  it.each([
    ['an error answer', async () => Response.json({ code: '23514', message: 'check' }, { status: 400 })],
    ['a 503', async () => Response.json({ code: 'PGRST002' }, { status: 503 })],
    ['a 409 that is not a duplicate', async () => new Response('not json', { status: 409 })],
    ['a network failure', async () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('reports failure for %s without throwing', async (_name, answer) => {
    const { fetch } = fakeFetch(answer)
    await expect(joinWaitlist('a@b.co', {}, { site, fetch })).resolves.toEqual({ ok: false })
  })

  it('gives up after 10 seconds without an answer', async () => {
    vi.useFakeTimers()
    let aborted = false
    const fetch = ((_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => {
          aborted = true
          reject(new DOMException('aborted', 'AbortError'))
        })
      })) as unknown as typeof globalThis.fetch
    const result = joinWaitlist('a@b.co', {}, { site, fetch })
    await vi.advanceTimersByTimeAsync(WAITLIST_TIMEOUT_MS - 1)
    expect(aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await expect(result).resolves.toEqual({ ok: false })
    expect(aborted).toBe(true)
  })
})
