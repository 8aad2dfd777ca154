// axe-core over the page as a phone and a desktop show it, and with a toast on screen.
import AxeBuilder from '@axe-core/playwright'
import { describe, expect, it } from 'vitest'
import { content } from '../../web/content'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { toasts, visit, waitForHydration } from '../support/page'

describe.skipIf(!chromiumAvailable)('accessibility (axe-core)', () => {
  const suite = useServerAndBrowser()

  it.each([
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])('finds no violation at $width px', async (viewport) => {
    const { page } = await visit(suite.browser, `${suite.server.url}/`, { viewport })
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
