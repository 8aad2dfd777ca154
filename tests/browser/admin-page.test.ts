// The operators' page on a phone and on a desktop: it fits, its chart follows the window and
// speaks ISO dates like the table, the numbers behind the chart are a table a screen reader reads,
// and searching sends one request per pause in typing, whose answer is never overwritten by an
// older one.
import Database from 'better-sqlite3'
import type { Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminContent as copy } from '../support/admin-words'
import { SEARCH_PAUSE_MS } from '../../web/admin/hooks'
import { axeOn } from '../support/axe'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { row } from '../support/rows'
import { ownerIn } from '../support/team'

const LONG = 'a-rather-long-address.for-the-layout@kennel-club-of-somewhere.example'
const DAYS = ['2026-10-01', '2026-10-02', '2026-10-05', '2026-10-20']

describe.skipIf(!chromiumAvailable)('admin page, fitted and precise', () => {
  const suite = useServerAndBrowser()
  beforeAll(async () => {
    for (const email of [LONG, 'ada@example.com', 'grace@example.com', 'alan@example.com', 'annie@example.com'])
      await suite.server.app.store.add(row(email))
    // Sign-ups on earlier days, as a launch month would have them.
    const db = new Database(suite.server.config.SQLITE_PATH)
    const update = db.prepare('UPDATE waitlist SET created_at = ? WHERE id = ?')
    DAYS.forEach((day, i) => update.run(`${day}T12:00:00.000Z`, i + 1))
    db.close()
  })

  /** Signs an owner in and opens a view (the overview unless said); `before` runs first (to record requests or drawn text). */
  async function signIn(
    width: number,
    before?: (page: Page) => Promise<void>,
    view = '',
    colorScheme: 'light' | 'dark' = 'light',
  ): Promise<Page> {
    const context = await suite.browser.newContext({ viewport: { width, height: 900 }, colorScheme })
    await ownerIn(context, suite.server)
    const page = await context.newPage()
    await before?.(page)
    await page.goto(`${suite.server.url}/admin${view}`)
    await page.getByRole('navigation', { name: copy.nav.label }).waitFor()
    return page
  }

  it('fits a 390 px phone: no sideways scrolling, every Remove button on screen', async () => {
    const page = await signIn(390, undefined, '/signups')
    await page.getByText(LONG, { exact: true }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    const buttons = page.getByRole('button', { name: /^Remove / })
    expect(await buttons.count()).toBe(5)
    for (const button of await buttons.all()) {
      await button.scrollIntoViewIfNeeded() // down the page: scrolling down is fine, sideways is not
      expect(await page.evaluate(() => window.scrollX)).toBe(0)
      const box = await button.boundingBox()
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true)
      // Reachable as it is, without scrolling a box sideways.
      expect(
        await button.evaluate((b) => {
          const r = b.getBoundingClientRect()
          return (
            document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === b ||
            b.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2))
          )
        }),
      ).toBe(true)
    }
    await page.context().close()
  })

  // One test per view and width, on one page per width (the views need no fresh page): each view's
  // axe run has its own time. All views in one test took 60 s, its limit, beside another layer on
  // two cores (a fresh clone's .ci/run, 2026-12-01).
  describe.each([
    [390, 'light'],
    [1280, 'light'],
    [1280, 'dark'],
  ] as const)('at %i px, %s', (width, colorScheme) => {
    let page: Page
    beforeAll(async () => {
      page = await signIn(width, undefined, '', colorScheme)
      await page.getByRole('table', { name: copy.perDayTable }).waitFor()
    })
    afterAll(() => page?.context().close())
    const nav = () => page.getByRole('navigation', { name: copy.nav.label })

    it('lists every view for an owner', async () => {
      expect(await nav().getByRole('link').allInnerTexts()).toEqual(Object.values(copy.nav).slice(1))
    })

    it.each(Object.values(copy.nav).slice(1))('finds no axe violation on %s, and nothing scrolls sideways', async (view) => {
      await nav().getByRole('link', { name: view, exact: true }).click()
      await page.getByRole('main', { name: view }).waitFor()
      await page.waitForLoadState('networkidle')
      const results = await axeOn(page).analyze()
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    })
  })

  it('moves between views by keyboard: the link says where you are, and the view takes the focus', async () => {
    const page = await signIn(390)
    const nav = page.getByRole('navigation', { name: copy.nav.label })
    expect(await nav.getByRole('link', { name: copy.nav.overview }).getAttribute('aria-current')).toBe('page')
    const target = nav.getByRole('link', { name: copy.nav.audit })
    for (let i = 0; i < 20 && !(await target.evaluate((link) => link === document.activeElement)); i++) await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await page.getByRole('region', { name: copy.audit.caption }).waitFor()
    expect(page.url()).toBe(`${suite.server.url}/admin/audit`)
    expect(await target.getAttribute('aria-current')).toBe('page')
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN')
    await page.goBack()
    await page.getByRole('heading', { name: copy.total, exact: true }).waitFor()
    await page.context().close()
  })

  it('redraws the chart at the width of its box when the window changes', async () => {
    const page = await signIn(1280)
    const chart = page.getByRole('img', { name: copy.chartLabel })
    const widths = () =>
      chart.evaluate((box) => ({ box: box.clientWidth, canvas: box.querySelector('canvas')?.getBoundingClientRect().width ?? 0 }))
    await page.waitForFunction(() => document.querySelector('canvas') !== null)
    const wide = await widths()
    expect(Math.abs(wide.canvas - wide.box)).toBeLessThanOrEqual(2)
    // Narrower than lg, the cards stack: the chart's box changes width, and the canvas with it.
    await page.setViewportSize({ width: 700, height: 900 })
    await page.waitForFunction((before) => {
      const box = document.querySelector('[role="img"]')
      const canvas = box?.querySelector('canvas')?.getBoundingClientRect().width ?? 0
      return box !== null && Math.abs(canvas - before) > 50 && Math.abs(canvas - box.clientWidth) <= 2
    }, wide.canvas)
    const narrow = await widths()
    expect(Math.abs(narrow.canvas - narrow.box)).toBeLessThanOrEqual(2)
    await page.context().close()
  })

  it('labels the time axis with days only, as the table writes them in the operator’s language', async () => {
    const page = await signIn(1280, async (p) => {
      await p.addInitScript(() => {
        const drawn: string[] = ((window as unknown as { drawn: string[] }).drawn = [])
        const fillText = CanvasRenderingContext2D.prototype.fillText
        CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
          drawn.push(String(text))
          return fillText.call(this, text, ...rest)
        }
      })
    })
    await page.waitForFunction(() => (window as unknown as { drawn: string[] }).drawn.length > 0)
    const drawn = await page.evaluate(() => (window as unknown as { drawn: string[] }).drawn)
    const days = drawn.filter((text) => !/^\d+$/.test(text)) // the other axis counts sign-ups
    expect(days.length).toBeGreaterThan(1)
    // Every label a day of the chart's span as the table writes one (the axis marks days between the table's too).
    const written = new Set<string>()
    for (let time = Date.parse(`${DAYS[0]}T00:00:00Z`) - 86_400_000; time <= Date.now() + 86_400_000; time += 86_400_000)
      written.add(copy.format.day(new Date(time).toISOString()))
    for (const text of days) expect(written.has(text), text).toBe(true)
    await page.context().close()
  })

  it('gives the numbers behind the chart as a table', async () => {
    const page = await signIn(1280)
    const table = page.getByRole('table', { name: copy.perDayTable })
    await table.waitFor()
    const rows = (await table.getByRole('row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())
    const today = new Date().toISOString().slice(0, 10)
    expect(rows).toEqual([
      `${copy.perDayColumns.day} ${copy.perDayColumns.count}`,
      `${copy.format.day(today)} 1`,
      ...[...DAYS].reverse().map((day) => `${copy.format.day(day)} 1`),
    ])
    await page.context().close()
  })

  it('searches once per pause in typing, and an older answer never replaces a newer one', async () => {
    const searches: string[] = []
    // The answer for "a" is slow: held until the answer for "ada" is on screen.
    let answerSlow = (): void => {}
    let slowAnswered = (): void => {}
    const slowDone = new Promise<void>((resolve) => (slowAnswered = resolve))
    const page = await signIn(
      1280,
      async (p) => {
        await p.clock.install() // the page's timers under the test's hand once paused below
        p.on('request', (request: Request) => {
          const url = new URL(request.url())
          if (url.pathname === '/admin/api/signups' && url.searchParams.has('search')) searches.push(url.searchParams.get('search') ?? '')
        })
        await p.route(
          (url) => url.pathname === '/admin/api/signups' && url.searchParams.get('search') === 'a',
          async (route) => {
            await new Promise<void>((resolve) => (answerSlow = resolve))
            await route.continue().catch(() => undefined) // aborted by the page meanwhile
            slowAnswered()
          },
        )
      },
      '/signups',
    )
    await page.getByRole('cell', { name: 'ada@example.com', exact: true }).waitFor()
    const box = page.getByLabel(copy.searchLabel)
    // Three keys, each less than the pause after the one before, on the page's own clock (a busy
    // machine cannot stretch it); the search goes out once the pause after the last has passed.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 5_000)) // (ahead of the page's clock, which runs meanwhile)
    for (const key of 'gra') {
      await box.press(key)
      await page.clock.runFor(SEARCH_PAUSE_MS - 1)
    }
    expect(searches).toEqual([])
    await page.clock.runFor(1)
    await page.getByRole('cell', { name: 'grace@example.com', exact: true }).waitFor()
    await page.getByRole('cell', { name: 'ada@example.com', exact: true }).waitFor({ state: 'detached' })
    expect(searches).toEqual(['gra']) // one request for three keystrokes
    const slowAsked = page.waitForRequest((request) => new URL(request.url()).searchParams.get('search') === 'a')
    await box.fill('a')
    await page.clock.runFor(SEARCH_PAUSE_MS)
    await slowAsked // the slow request for "a" is under way
    await box.fill('ada')
    await page.clock.runFor(SEARCH_PAUSE_MS)
    await page.getByRole('cell', { name: 'grace@example.com', exact: true }).waitFor({ state: 'detached' })
    answerSlow()
    await slowDone // the slow answer has had its turn…
    await page.clock.runFor(1_000)
    await page.waitForTimeout(300) // …and the page its time to show it, were it shown
    const shown = await page.getByRole('cell', { name: /@/ }).allInnerTexts()
    expect(shown.filter((text) => text.includes('@'))).toEqual(['ada@example.com'])
    expect(searches).toEqual(['gra', 'a', 'ada'])
    await page.context().close()
  })
})

describe.skipIf(!chromiumAvailable)('the admin chart with few days', () => {
  const suite = useServerAndBrowser()

  it.each([390, 1280])('draws every day label whole inside the canvas at %i px', async (width) => {
    await suite.server.app.store.add(row(`few-${width}-a@example.com`))
    await suite.server.app.store.add(row(`few-${width}-b@example.com`))
    const context = await suite.browser.newContext({ viewport: { width, height: 900 } })
    await ownerIn(context, suite.server)
    const page = await context.newPage()
    await page.addInitScript(() => {
      type Label = { text: string; left: number; right: number; canvas: number }
      const drawn: Label[] = ((window as unknown as { labels: Label[] }).labels = [])
      const fillText = CanvasRenderingContext2D.prototype.fillText
      CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
        const width = this.measureText(String(text)).width
        const left = this.textAlign === 'center' ? x - width / 2 : this.textAlign === 'right' || this.textAlign === 'end' ? x - width : x
        drawn.push({ text: String(text), left, right: left + width, canvas: this.canvas.width })
        return fillText.call(this, text, x, y, ...rest)
      }
    })
    await page.goto(`${suite.server.url}/admin`)
    await page.waitForFunction(() => (window as unknown as { labels: unknown[] }).labels.length > 1)
    const labels = await page.evaluate(
      () => (window as unknown as { labels: { text: string; left: number; right: number; canvas: number }[] }).labels,
    )
    const days = labels.filter((label) => !/^\d+$/.test(label.text)) // the other axis counts sign-ups
    expect(days.length).toBeGreaterThan(0)
    for (const day of days) {
      expect(day.left, day.text).toBeGreaterThanOrEqual(0)
      expect(day.right, day.text).toBeLessThanOrEqual(day.canvas)
    }
    await context.close()
  })
})
