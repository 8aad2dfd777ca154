// The operators' page at /admin, used as the team would: sign in, read, search, export, remove.
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { adminContent as copy } from '../support/admin-words'
import { DEFAULT_MARKDOWN_WITHOUT_STORE } from '../../web/admin/views/campaigns/default-message'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { row } from '../support/rows'
import { watchConsole } from '../support/page'
import { ownerIn } from '../support/team'
import { profileOf } from '../support/profile'

describe.skipIf(!chromiumAvailable)('admin page', () => {
  const suite = useServerAndBrowser()
  beforeAll(async () => {
    await suite.server.app.store.add(row('ada@example.com', { utm_source: 'newsletter' }))
    await suite.server.app.store.add(row('grace@example.com', { utm_source: 'newsletter' }))
    await suite.server.app.store.add(row('linus@example.com', { referrer: 'club.example' }))
  })

  /** An owner signed in a moment ago (exports and removals need a recent sign-in), on a view. */
  async function signIn(view = ''): Promise<Page> {
    const context = await suite.browser.newContext({ acceptDownloads: true })
    await ownerIn(context, suite.server)
    const page = await context.newPage()
    await page.goto(`${suite.server.url}/admin${view}`)
    return page
  }

  it('is not for search engines', async () => {
    const answer = await fetch(`${suite.server.url}/admin`)
    expect(answer.headers.get('x-robots-tag')).toContain('noindex')
    expect(await answer.text()).toContain('<meta name="robots" content="noindex, nofollow"')
    expect((await fetch(`${suite.server.url}/admin.html`)).status).toBe(404)
  })

  it('offers a passkey and an e-mail link to whoever is not signed in, and no token field', async () => {
    const page = await (await suite.browser.newContext()).newPage()
    // Signed out is a state, not an error: nothing in the console (no 401 for the session).
    const problems = watchConsole(page)
    await page.goto(`${suite.server.url}/admin`)
    await page.getByRole('heading', { name: copy.signIn.heading }).waitFor()
    await page.getByRole('button', { name: copy.signIn.passkey }).waitFor()
    expect(problems).toEqual([])
    await page.getByLabel(copy.signIn.emailLabel).fill('nobody@example.com')
    await page.getByRole('button', { name: copy.signIn.sendLink }).click()
    await page.getByRole('status').getByText(copy.signIn.linkSent).waitFor()
    expect(await page.locator('input[type="password"]').count()).toBe(0)
    await page.context().close()
  })

  it('offers a default campaign text that a default install (no APP_STORE_URL) takes as it is', async () => {
    const page = await signIn('/campaigns')
    const message = page.getByLabel(copy.campaigns.markdown)
    await message.waitFor()
    await expect.poll(() => message.inputValue()).toBe(DEFAULT_MARKDOWN_WITHOUT_STORE)
    await page.getByLabel(copy.campaigns.subject, { exact: true }).fill('Kennect is here')
    await page.getByRole('button', { name: copy.campaigns.preview }).click()
    await page.getByRole('region', { name: copy.campaigns.recipients(0) }).waitFor()
    expect(await page.getByText(copy.campaigns.refused).count()).toBe(0)
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
    await page.getByRole('navigation', { name: copy.nav.label }).getByRole('link', { name: copy.nav.signups }).click()
    for (const email of ['ada@example.com', 'grace@example.com', 'linus@example.com'])
      await page.getByRole('cell', { name: email, exact: true }).waitFor()
    await page.context().close()
  })

  it('follows a dark system theme whole: every light surface dark, every dark word light (no half-dark page)', async () => {
    /** Every element's tag, and its text's and background's luminance (WCAG) and opacity, on a view in one scheme. */
    const colours = async (colorScheme: 'light' | 'dark', view: string) => {
      const context = await suite.browser.newContext({ colorScheme })
      await ownerIn(context, suite.server)
      const page = await context.newPage()
      await page.goto(`${suite.server.url}/admin${view}`)
      await page.getByRole('button').first().waitFor()
      await page.waitForLoadState('networkidle')
      // What a view draws from its answers is drawn, on a loaded machine, after the network went
      // quiet (a CI run read the overview's chart in one scheme before it and in the other after):
      // each answer's part is waited for, so both schemes read the same elements.
      if (view === '') {
        await page.getByRole('img', { name: copy.chartLabel }).locator('canvas').first().waitFor()
        await page.getByRole('table', { name: copy.funnel.daysCaption, exact: true }).waitFor()
      }
      if (view === '/signups') await page.getByRole('cell', { name: 'ada@example.com', exact: true }).waitFor()
      if (view === '/campaigns') {
        await page.getByText(copy.imports.composerNone).waitFor()
        // Each campaign of the list has its bar (none: the list reads the same before its answer).
        const campaigns = (await suite.server.app.store.campaigns.list()).length
        await expect.poll(() => page.getByRole('progressbar').count()).toBe(campaigns)
      }
      const found = await page.evaluate(() => {
        // Any CSS colour (rgb, oklch, lab…) as the browser paints it: one pixel of a canvas.
        const pixel = document.createElement('canvas').getContext('2d', { willReadFrequently: true })
        if (!pixel) throw new Error('no canvas')
        const read = (css: string) => {
          pixel.clearRect(0, 0, 1, 1)
          pixel.fillStyle = css
          pixel.fillRect(0, 0, 1, 1)
          const [r = 0, g = 0, b = 0, a = 0] = pixel.getImageData(0, 0, 1, 1).data
          const channel = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4)
          return { l: 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b), a: a / 255 }
        }
        return [document.documentElement, ...document.body.querySelectorAll('*')].map((element) => {
          const style = getComputedStyle(element)
          return { tag: element.tagName, text: read(style.color), background: read(style.backgroundColor) }
        })
      })
      await context.close()
      return found
    }
    for (const view of ['', '/signups', '/campaigns']) {
      const light = await colours('light', view)
      const dark = await colours('dark', view)
      expect(light.length, view).toBeGreaterThan(20)
      expect(
        dark.map((e) => e.tag),
        view,
      ).toEqual(light.map((e) => e.tag))
      const halfDark = light.flatMap((was, i) => {
        const now = dark[i]
        if (!now) return [`${view} ${was.tag} ${i}: missing`]
        const problems: string[] = []
        // A light surface (white, the stone-50 to stone-200 greys) is dark in the dark scheme.
        if (was.background.a > 0.5 && was.background.l > 0.7 && now.background.a > 0.5 && now.background.l > 0.2)
          problems.push(`${was.tag} ${i}: background ${now.background.l.toFixed(2)}`)
        // A dark word (stone-900 to stone-600, the coloured words' dark shades) is light in it.
        if (was.text.l < 0.2 && now.text.l < 0.3) problems.push(`${was.tag} ${i}: text ${now.text.l.toFixed(2)}`)
        return problems
      })
      expect(halfDark, view).toEqual([])
    }
  })

  it('fits a 390 px phone on every view, and keeps an address on one line in the audit log', async () => {
    const LONG = 'grace.brewster.murray.hopper@kennect.example'
    const { store } = suite.server.app
    await store.visitors.saveProfile(
      (await store.list({ limit: 1, search: 'ada@example.com' }))[0]?.id ?? 0,
      profileOf({ role: 'enthusiast', breeds: [], country: 'GB' }),
    )
    const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 } })
    await ownerIn(context, suite.server, LONG)
    const page = await context.newPage()
    for (const view of ['', '/signups', '/demand', '/campaigns', '/mail', '/team', '/audit', '/webhooks', '/account']) {
      await page.goto(`${suite.server.url}/admin${view}`)
      await page.waitForLoadState('networkidle')
      if (view === '/demand') {
        await page.locator('summary', { hasText: copy.demand.roleCountry }).click()
        await page.getByRole('region', { name: copy.demand.roleCountry }).getByRole('cell', { name: 'GB' }).waitFor()
      }
      // The log's lines come from a fetch after the view's chunk: a quiet network need not mean they are drawn.
      if (view === '/audit') await page.getByRole('cell', { name: LONG, exact: true }).first().waitFor()
      expect(await page.evaluate(() => document.documentElement.scrollWidth), view).toBeLessThanOrEqual(390)
      if (view !== '/audit') continue
      // The audit log names the owner who signed in: on one line (it once broke into three-letter lines).
      const lines = await page.evaluate((email) => {
        const cell = [...document.querySelectorAll('td')].find((td) => td.textContent?.includes(email))
        if (!cell?.firstChild) return 0
        const range = document.createRange()
        range.selectNodeContents(cell)
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size
      }, LONG)
      expect(lines).toBe(1)
    }
    await context.close()
  })

  it('searches the list', async () => {
    const page = await signIn('/signups')
    await page.getByRole('cell', { name: 'ada@example.com', exact: true }).waitFor()
    await page.getByLabel(copy.searchLabel).fill('GRACE')
    await page.getByRole('cell', { name: 'ada@example.com', exact: true }).waitFor({ state: 'detached' })
    expect(await page.getByRole('cell', { name: 'grace@example.com', exact: true }).isVisible()).toBe(true)
    await page.context().close()
  })

  it('exports the list as a CSV file', async () => {
    const page = await signIn('/signups')
    await page.getByRole('cell', { name: 'ada@example.com', exact: true }).waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: copy.exportCsv }).click()])
    expect(download.suggestedFilename()).toMatch(/^kennect-waitlist-\d{4}-\d\d-\d\d\.csv$/)
    const text = readFileSync(await download.path(), 'utf8')
    expect(text.split('\r\n')[0]).toBe(
      'id,email,created_at,utm_source,utm_medium,utm_campaign,referrer,confirmed_at,unsubscribed_at,role,breeds,country,mail_state,invited_by,invites_confirmed,locale,platform,claimed_at,partner',
    )
    expect(text).toContain('ada@example.com')
    await page.context().close()
  })

  it('removes an address after asking, and signs out', async () => {
    const page = await signIn('/signups')
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
    const [session] = await page.context().cookies()
    await page.getByRole('button', { name: copy.signOut }).click()
    await page.getByRole('button', { name: copy.signIn.passkey }).waitFor()
    expect(await page.evaluate(() => sessionStorage.length + localStorage.length)).toBe(0)
    // Ended for the server too: the cookie the browser had opens nothing any more.
    const again = await fetch(`${suite.server.url}/admin/api/stats`, { headers: { cookie: `${session?.name}=${session?.value}` } })
    expect(again.status).toBe(401)
    await page.context().close()
  })
})
