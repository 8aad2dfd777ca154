// The spec's checks on every language's page (docs/decisions/016-languages.md), with every text
// taken from that language's catalogue: title, headline and sections in order, the three toasts
// with their variants and timings, the sign-up stored in its language, the no-script form coming
// back to its own language, and the switcher a keyboard and a screen reader can use.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { LOCALES, type Locale, localePath } from '../../contract/locales'
import { type Content, pageContent } from '../../web/content'
import { DEFAULT_TOAST_MS, WAITLIST_TOAST_MS } from '../../web/lib/toast-store'
import { axeOn } from '../support/axe'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { readToast, visit, waitForHydration } from '../support/page'
import { sectionHeadingsOf } from '../support/sections'

/** Accepted by the browser's type=email check, refused by the server: longer than 254 characters. */
const tooLongForServer = `${'a'.repeat(60)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`

/** What a visitor finds on a page in that language's words. */
const onPage = (page: Page, words: Content) => ({
  email: page.getByRole('textbox', { name: words.waitlist.emailLabel }),
  join: page.getByRole('button', { name: words.waitlist.submit, exact: true }),
  contactSupport: page.getByRole('link', { name: words.footer.contactSupport, exact: true }),
  toasts: page.getByRole('region', { name: words.toaster.regionLabel.replace('{hotkey}', 'F8') }).getByRole('listitem'),
})
const toastText = (toast: { title: string; description: string }) => `${toast.title} ${toast.description}`

describe.skipIf(!chromiumAvailable)('every language', () => {
  // No minimum time for the no-script form (a test types faster than a person).
  const suite = useServerAndBrowser({ FORM_MIN_SECONDS: '0' })
  const stored = async (email: string) => (await suite.server.app.store.list({ limit: 1, search: email }))[0]

  describe.each(LOCALES)('%s', (locale: Locale) => {
    const words = pageContent(locale)
    const url = () => `${suite.server.url}${localePath(locale)}`

    it("reads as the spec's page, whole in its language, and hydrates without a console problem", async () => {
      const { page, problems } = await visit(suite.browser, url())
      expect(await page.getAttribute('html', 'lang')).toBe(locale)
      expect(await page.title()).toBe(words.meta.title)
      await page.getByRole('heading', { level: 1, name: words.hero.headline }).waitFor()
      const expected = [words.hero.headline, ...sectionHeadingsOf(words)]
      const order = await page.$$eval('h1, h2', (headings) => headings.map((h) => h.textContent?.trim() ?? ''))
      expect(order.filter((h) => expected.includes(h))).toEqual(expected)
      await waitForHydration(page)
      expect(problems).toEqual([])
      // axe on every language, with its rule that a control's name starts with what it shows
      // (WCAG 2.5.3, off by default): a translated label must keep the visible words.
      const results = await axeOn(page, { rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze()
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
      await page.context().close()
    })

    it('thanks in its language for 4 seconds, stores the sign-up in it, and says sorry in it when refused', async () => {
      const { page, problems } = await visit(suite.browser, url(), {}, (p) => p.clock.install())
      await waitForHydration(page)
      await page.clock.pauseAt(Date.now() + 60_000)
      const { email, join, toasts } = onPage(page, words)
      const address = `joins.${locale}@example.com`
      await email.fill(address)
      await join.click()
      await page.mouse.move(1, 1)
      const toast = toasts.first()
      expect(await readToast(toast)).toEqual({ text: toastText(words.waitlist.success), variant: 'default' })
      expect(await stored(address)).toMatchObject({ email: address, locale })
      await page.clock.runFor(WAITLIST_TOAST_MS - 1)
      expect(await toast.getAttribute('data-state')).toBe('open')
      await page.clock.runFor(1)
      await toast.waitFor({ state: 'detached' })

      await email.fill(tooLongForServer)
      await join.click()
      expect(await readToast(toasts.first())).toEqual({ text: toastText(words.waitlist.failure), variant: 'destructive' })
      expect(await email.inputValue()).toBe(tooLongForServer)
      expect(problems.filter((problem) => !problem.includes('400'))).toEqual([])
      await page.context().close()
    })

    it('tells where to write for 5 seconds, in its language', async () => {
      const { page } = await visit(suite.browser, url(), {}, (p) => p.clock.install())
      await waitForHydration(page)
      await page.clock.pauseAt(Date.now() + 60_000)
      const { contactSupport, toasts } = onPage(page, words)
      await contactSupport.click()
      await page.mouse.move(1, 1)
      const toast = toasts.first()
      expect(await readToast(toast)).toEqual({ text: toastText(words.footer.supportToast), variant: 'default' })
      expect(await toast.getByRole('link', { name: words.footer.supportEmail }).getAttribute('href')).toBe(
        `mailto:${words.footer.supportEmail}`,
      )
      await page.clock.runFor(DEFAULT_TOAST_MS - 1)
      expect(await toast.getAttribute('data-state')).toBe('open')
      await page.clock.runFor(1)
      await toast.waitFor({ state: 'detached' })
      await page.context().close()
    })

    it('joins without JavaScript and comes back to its own language, thanked in it', async () => {
      const { page, problems } = await visit(suite.browser, url(), { javaScriptEnabled: false })
      const { email, join } = onPage(page, words)
      const address = `nojs.${locale}@example.com`
      await email.fill(address)
      await join.click()
      await page.waitForURL(`${url()}#waitlist-joined`)
      const outcome = page.locator('#waitlist-joined')
      expect((await outcome.innerText()).replace(/\s+/g, ' ').trim()).toBe(toastText(words.waitlist.outcomes.joined))
      expect(await stored(address)).toMatchObject({ email: address, locale })
      expect(problems).toEqual([])
      await page.context().close()
    })
  })

  it('the switcher is plain links a keyboard reaches, each language named in itself, and it changes the page', async () => {
    const english = pageContent('en')
    const { page } = await visit(suite.browser, `${suite.server.url}/`, { javaScriptEnabled: false })
    // From the top of the page, Tab reaches the switcher before the page's own links.
    const summary = page.locator('header details > summary')
    for (let i = 0; i < 10 && !(await summary.evaluate((s) => s === document.activeElement)); i++) await page.keyboard.press('Tab')
    expect(await summary.evaluate((s) => s === document.activeElement)).toBe(true)
    await page.keyboard.press('Enter')
    const list = page.getByRole('list', { name: english.header.languages.label })
    const links = list.getByRole('link')
    expect(await links.allInnerTexts()).toEqual(['English', 'Deutsch', 'Français', 'Español', 'Italiano', 'Polski'])
    expect(
      await links.evaluateAll((as) => as.map((a) => [a.getAttribute('lang'), a.getAttribute('hreflang'), a.getAttribute('href')])),
    ).toEqual(LOCALES.map((l) => [l, l, localePath(l)]))
    expect(await list.getByRole('link', { name: 'English' }).getAttribute('aria-current')).toBe('page')
    // Down to Polski by keyboard, and in.
    const polski = list.getByRole('link', { name: 'Polski' })
    for (let i = 0; i < LOCALES.length && !(await polski.evaluate((a) => a === document.activeElement)); i++)
      await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await page.waitForURL(`${suite.server.url}/pl/`)
    expect(await page.getAttribute('html', 'lang')).toBe('pl')
    // A screen reader hears what the button is for, in the page's language.
    const polish = pageContent('pl')
    expect(await page.locator('header details > summary').innerText()).toContain('Polski')
    expect(await page.locator('header details > summary .sr-only').innerText()).toContain(polish.header.languages.label)
    await page.context().close()
  })
})
