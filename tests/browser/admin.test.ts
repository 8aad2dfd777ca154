// The operators' page at /admin, used as the team would: sign in, read, search, export, remove.
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { adminContent as copy } from '../../web/admin/content'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { row } from '../support/rows'

const TOKEN = 'browser-admin-token-0123456789'

describe.skipIf(!chromiumAvailable)('admin page', () => {
  const suite = useServerAndBrowser({ ADMIN_TOKEN: TOKEN })
  beforeAll(async () => {
    await suite.server.app.store.add(row('ada@example.com', { utm_source: 'newsletter' }))
    await suite.server.app.store.add(row('grace@example.com', { utm_source: 'newsletter' }))
    await suite.server.app.store.add(row('linus@example.com', { referrer: 'club.example' }))
  })

  async function signIn(token = TOKEN): Promise<Page> {
    const context = await suite.browser.newContext({ acceptDownloads: true })
    const page = await context.newPage()
    await page.goto(`${suite.server.url}/admin`)
    await page.getByLabel(copy.signIn.tokenLabel).fill(token)
    await page.getByRole('button', { name: copy.signIn.submit }).click()
    return page
  }

  it('is not for search engines', async () => {
    const answer = await fetch(`${suite.server.url}/admin`)
    expect(answer.headers.get('x-robots-tag')).toContain('noindex')
    expect(await answer.text()).toContain('<meta name="robots" content="noindex, nofollow"')
    expect((await fetch(`${suite.server.url}/admin.html`)).status).toBe(404)
  })

  it('refuses a wrong token', async () => {
    const page = await signIn('not-the-token-at-all')
    await page.getByRole('alert').getByText(copy.signIn.refused).waitFor()
    await page.context().close()
  })

  it('shows the total, the chart, the top sources and the sign-ups', async () => {
    const page = await signIn()
    await page.getByRole('region', { name: copy.total, exact: true }).getByText('3', { exact: true }).waitFor()
    await page.getByRole('img', { name: copy.chartLabel }).locator('canvas').first().waitFor()
    const sources = page.getByRole('region', { name: copy.sources })
    expect((await sources.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '))).toEqual([
      'newsletter 2',
      'club.example 1',
    ])
    for (const email of ['ada@example.com', 'grace@example.com', 'linus@example.com'])
      await page.getByRole('cell', { name: email, exact: true }).waitFor()
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
    expect(text.split('\r\n')[0]).toBe(
      'id,email,created_at,utm_source,utm_medium,utm_campaign,referrer,confirmed_at,unsubscribed_at,role,breeds,country,mail_state,invited_by,invites_confirmed,locale',
    )
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
    expect((await suite.server.app.store.list({ limit: 10 })).map((r) => r.email)).toEqual(['ada@example.com', 'grace@example.com'])
    await page.getByRole('button', { name: copy.signOut }).click()
    await page.getByLabel(copy.signIn.tokenLabel).waitFor()
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    await page.context().close()
  })
})
