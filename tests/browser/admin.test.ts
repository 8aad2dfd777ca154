// The operators' page at /admin, used as the team would: sign in, read, search, export, remove.
import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WaitlistRow } from '../../server/store/store'
import { adminContent as copy } from '../../web/admin/content'
import { chromiumAvailable, launchChromium } from '../support/chromium'
import { startServer, type TestServer } from '../support/server'

const TOKEN = 'browser-admin-token-0123456789'
const row = (email: string, extra: Partial<WaitlistRow> = {}): WaitlistRow => ({
  email,
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  referrer: null,
  ...extra,
})

describe.skipIf(!chromiumAvailable)('admin page', () => {
  let server: TestServer
  let browser: Browser
  beforeAll(async () => {
    server = await startServer({ ADMIN_TOKEN: TOKEN })
    browser = await launchChromium()
    await server.app.store.add(row('ada@example.com', { utm_source: 'newsletter' }))
    await server.app.store.add(row('grace@example.com', { utm_source: 'newsletter' }))
    await server.app.store.add(row('linus@example.com', { referrer: 'club.example' }))
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  async function signIn(token = TOKEN): Promise<Page> {
    const context = await browser.newContext({ acceptDownloads: true })
    const page = await context.newPage()
    await page.goto(`${server.url}/admin`)
    await page.getByLabel(copy.signIn.tokenLabel).fill(token)
    await page.getByRole('button', { name: copy.signIn.submit }).click()
    return page
  }

  it('is not for search engines', async () => {
    const answer = await fetch(`${server.url}/admin`)
    expect(answer.headers.get('x-robots-tag')).toContain('noindex')
    expect(await answer.text()).toContain('<meta name="robots" content="noindex, nofollow"')
    expect((await fetch(`${server.url}/admin.html`)).status).toBe(404)
  })

  it('refuses a wrong token', async () => {
    const page = await signIn('not-the-token-at-all')
    await page.getByRole('alert').getByText(copy.signIn.refused).waitFor()
    await page.context().close()
  })

  it('shows the total, the chart, the top sources and the sign-ups', async () => {
    const page = await signIn()
    await page.getByRole('region', { name: copy.total }).getByText('3', { exact: true }).waitFor()
    await page.getByRole('img', { name: copy.chartLabel }).locator('canvas').first().waitFor()
    const sources = page.getByRole('region', { name: copy.sources })
    expect((await sources.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '))).toEqual(['newsletter 2', 'club.example 1'])
    for (const email of ['ada@example.com', 'grace@example.com', 'linus@example.com']) await page.getByRole('cell', { name: email, exact: true }).waitFor()
    await page.context().close()
  })

  it('searches the list', async () => {
    const page = await signIn()
    await page.getByRole('cell', { name: 'ada@example.com', exact: true }).waitFor()
    await page.getByLabel(copy.searchLabel).fill('GRACE')
    await page.getByRole('cell', { name: 'ada@example.com', exact: true }).waitFor({ state: 'detached' })
    expect(await page.getByRole('cell', { name: 'grace@example.com', exact: true }).isVisible()).toBe(true)
    await page.context().close()
  })

  it('exports the list as a CSV file', async () => {
    const page = await signIn()
    await page.getByRole('cell', { name: 'ada@example.com', exact: true }).waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: copy.exportCsv }).click()])
    expect(download.suggestedFilename()).toMatch(/^kennect-waitlist-\d{4}-\d\d-\d\d\.csv$/)
    const text = readFileSync(await download.path(), 'utf8')
    expect(text.split('\r\n')[0]).toBe('id,email,created_at,utm_source,utm_medium,utm_campaign,referrer')
    expect(text).toContain('ada@example.com')
    await page.context().close()
  })

  it('removes an address after asking, and signs out', async () => {
    const page = await signIn()
    const messages: string[] = []
    page.on('dialog', (dialog) => {
      messages.push(dialog.message())
      void (messages.length === 1 ? dialog.dismiss() : dialog.accept())
    })
    const remove = page.getByRole('button', { name: copy.removeLabel('linus@example.com') })
    await remove.click() // dismissed: nothing happens
    await remove.click() // accepted
    await page.getByRole('cell', { name: 'linus@example.com', exact: true }).waitFor({ state: 'detached' })
    expect(messages).toEqual([copy.confirmRemove('linus@example.com'), copy.confirmRemove('linus@example.com')])
    expect((await server.app.store.list({ limit: 10 })).map((r) => r.email)).toEqual(['ada@example.com', 'grace@example.com'])
    await page.getByRole('button', { name: copy.signOut }).click()
    await page.getByLabel(copy.signIn.tokenLabel).waitFor()
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    await page.context().close()
  })
})
