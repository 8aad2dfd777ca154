import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { content } from '../../web/content'
import { site } from '../../web/site'
import { DEFAULT_TOAST_MS, WAITLIST_TOAST_MS } from '../../web/lib/toast-store'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { readToast, submitEmail, toasts, visit, waitForHydration } from '../support/page'

const supportText = `${content.footer.supportToast.title} ${content.footer.supportToast.description}`
const successText = `${content.waitlist.success.title} ${content.waitlist.success.description}`
/** docs/requirements.md#toasts: swipe right past 50 px dismisses. */
const SWIPE_THRESHOLD_PX = 50

describe.skipIf(!chromiumAvailable)('toasts', () => {
  const suite = useServerAndBrowser()

  /** A visitor whose clock the test moves: time stands still until `runFor`. */
  async function openWithClock(): Promise<Page> {
    const { page } = await visit(suite.browser, `${suite.server.url}/`, {}, (p) => p.clock.install())
    await waitForHydration(page)
    await page.clock.pauseAt(Date.now() + 60_000)
    return page
  }

  const contactSupport = (page: Page) => page.getByRole('link', { name: content.footer.contactSupport })

  it('Contact Support tells the visitor which address to write to', async () => {
    const { page } = await visit(suite.browser, `${suite.server.url}/`)
    await waitForHydration(page)
    await contactSupport(page).click()
    const toast = await readToast(toasts(page).first())
    expect(toast).toEqual({ text: supportText, variant: 'default' })
    expect(toast.text).toContain(site.supportEmail)
    // The address is a link that opens the visitor's mail program, inside the same words.
    const link = toasts(page).first().getByRole('link', { name: site.supportEmail, exact: true })
    expect(await link.getAttribute('href')).toBe(`mailto:${site.supportEmail}`)
    await page.context().close()
  })

  it('the support toast closes by itself after 5 seconds', async () => {
    const page = await openWithClock()
    await contactSupport(page).click()
    await page.mouse.move(1, 1)
    const toast = toasts(page).first()
    await toast.waitFor()
    await page.clock.runFor(DEFAULT_TOAST_MS - 1)
    expect(await toast.getAttribute('data-state')).toBe('open')
    await page.clock.runFor(1)
    await toast.waitFor({ state: 'detached' })
    await page.context().close()
  })

  it('the thank-you toast closes by itself after 4 seconds', async () => {
    const page = await openWithClock()
    await submitEmail(page, 'timer@example.com')
    const toast = toasts(page).first()
    expect((await readToast(toast)).text).toBe(successText)
    await page.clock.runFor(WAITLIST_TOAST_MS - 1)
    expect(await toast.getAttribute('data-state')).toBe('open')
    await page.clock.runFor(1)
    await toast.waitFor({ state: 'detached' })
    await page.context().close()
  })

  it('shows one toast at a time: a new one replaces the old', async () => {
    const { page } = await visit(suite.browser, `${suite.server.url}/`)
    await waitForHydration(page)
    await contactSupport(page).click()
    await contactSupport(page).click()
    await toasts(page).first().waitFor()
    expect(await toasts(page).count()).toBe(1)
    await submitEmail(page, 'replace@example.com')
    await toasts(page).getByText(content.waitlist.success.title).waitFor()
    expect(await toasts(page).count()).toBe(1)
    expect((await readToast(toasts(page).first())).text).toBe(successText)
    await page.context().close()
  })

  async function swipe(page: Page, distance: number) {
    const toast = toasts(page).first()
    const box = await toast.boundingBox()
    if (!box) throw new Error('the toast has no box')
    const x = box.x + box.width / 3
    const y = box.y + box.height / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + distance, y, { steps: 10 })
    await page.mouse.up()
    await page.mouse.move(1, 1)
  }

  it('a swipe to the right shorter than 50 px leaves the toast in place', async () => {
    const page = await openWithClock()
    await contactSupport(page).click()
    await toasts(page).first().waitFor()
    await swipe(page, SWIPE_THRESHOLD_PX - 15)
    expect(await toasts(page).first().getAttribute('data-state')).toBe('open')
    expect(await toasts(page).first().getAttribute('data-swipe')).toBe('cancel')
    await page.context().close()
  })

  it('a swipe to the right past 50 px dismisses the toast', async () => {
    const page = await openWithClock()
    await contactSupport(page).click()
    await toasts(page).first().waitFor()
    await swipe(page, SWIPE_THRESHOLD_PX + 30)
    await toasts(page).first().waitFor({ state: 'detached' })
    await page.context().close()
  })

  it('a swipe to the left does not dismiss, however long', async () => {
    const page = await openWithClock()
    await contactSupport(page).click()
    await toasts(page).first().waitFor()
    await swipe(page, -120)
    expect(await toasts(page).first().getAttribute('data-state')).toBe('open')
    await page.context().close()
  })
})
