// axe-core over the page as a phone and a desktop show it, and with a toast on screen.
import AxeBuilder from '@axe-core/playwright'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content } from '../../web/content'
import { chromiumAvailable, launchChromium } from '../support/chromium'
import { toasts, visit, waitForHydration } from '../support/page'
import { startServer, type TestServer } from '../support/server'

describe.skipIf(!chromiumAvailable)('accessibility (axe-core)', () => {
  let server: TestServer
  let browser: Browser
  beforeAll(async () => {
    server = await startServer()
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it.each([
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])('finds no violation at $width px', async (viewport) => {
    const { page } = await visit(browser, `${server.url}/`, { viewport })
    await waitForHydration(page)
    const results = await new AxeBuilder({ page }).analyze()
    const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    expect(summary).toEqual([])
    // And with a toast on screen.
    await page.getByRole('button', { name: content.footer.contactSupport }).click()
    await toasts(page).first().waitFor()
    // Measured once its fade-in has finished, as it is read.
    await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'))
    const withToast = await new AxeBuilder({ page }).analyze()
    expect(withToast.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary}`).join(', ')}`)).toEqual([])
    await page.context().close()
  })
})
