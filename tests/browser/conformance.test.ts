// C9 of docs/protocol.md: supabase-js in a real browser, on a page of another origin, so CORS
// and the exposed Content-Range header decide whether `count` reaches the caller.
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { STORES } from '../support/stores'

const KEY = 'browser-anon-key'
const SUPABASE_UMD = join(process.cwd(), 'node_modules/@supabase/supabase-js/dist/umd/supabase.js')

describe.skipIf(!chromiumAvailable).each(STORES)('C9: supabase-js in Chromium on $kind', ({ kind, available }) => {
  const suite = useServerAndBrowser({ WAITLIST_ANON_KEY: KEY }, { kind, available })
  /** A page of another origin, where supabase-js runs. */
  let otherOrigin: Server | undefined
  let otherUrl: string
  beforeAll(async () => {
    if (!available) return
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>another site</title>')
    })
    otherOrigin = server
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    otherUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  })
  afterAll(async () => {
    const server = otherOrigin
    if (server) await new Promise((resolve) => server.close(resolve))
  })

  it.skipIf(!available)('insert with count exact from another origin reads count 1', async () => {
    const { server: api, browser } = suite
    const page = await browser.newPage()
    await page.goto(otherUrl)
    await page.addScriptTag({ path: SUPABASE_UMD })
    const result = await page.evaluate(
      async ({ url, key }) => {
        const global = window as unknown as { supabase: typeof import('@supabase/supabase-js') }
        const client = global.supabase.createClient(url, key, { auth: { persistSession: false } })
        const { count, error, status } = await client.from('waitlist').insert({ email: 'c9@example.com' }, { count: 'exact' })
        return { count, error, status, origin: location.origin }
      },
      { url: api.url, key: KEY },
    )
    expect(result.origin).not.toBe(new URL(api.url).origin)
    expect(result).toMatchObject({ count: 1, error: null, status: 201 })
    expect((await api.app.store.list({ limit: 10 })).map((r) => r.email)).toEqual(['c9@example.com'])
    await page.context().close()
  })
})
