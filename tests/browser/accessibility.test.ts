// axe-core over the page as a phone and a desktop show it, in the light and the dark scheme, with a
// toast on screen, and without JavaScript with a message of the no-script form.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { content } from '../../web/content'
import { axeOn } from '../support/axe'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { measureIconContrast } from '../support/contrast'
import { toasts, visit, waitForHydration } from '../support/page'

/** The page's background is near black in the dark scheme, near white in the light one. */
async function expectScheme(page: Page, scheme: 'light' | 'dark') {
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  // lab(L …) or rgb(r, g, b), as the CSS gives it: a lightness from 0 to 100 either way.
  const lab = /^lab\(([\d.]+)/.exec(background)
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(background)
  const lightness = lab ? Number(lab[1]) : rgb ? (Math.max(...rgb.slice(1).map(Number)) / 255) * 100 : Number.NaN
  if (scheme === 'dark') expect(lightness).toBeLessThan(10)
  else expect(lightness).toBeGreaterThan(90)
}

describe.skipIf(!chromiumAvailable)('accessibility (axe-core)', () => {
  const suite = useServerAndBrowser()

  it.each([
    { width: 390, height: 844, colorScheme: 'light' },
    { width: 1280, height: 800, colorScheme: 'light' },
    { width: 390, height: 844, colorScheme: 'dark' },
    { width: 1280, height: 800, colorScheme: 'dark' },
  ] as const)('finds no violation at $width px in the $colorScheme scheme', async ({ colorScheme, ...viewport }) => {
    const { page } = await visit(suite.browser, `${suite.server.url}/`, { viewport, colorScheme })
    // The scheme really is the one asked for: the page's background follows it.
    await expectScheme(page, colorScheme)
    await waitForHydration(page)
    const results = await axeOn(page).analyze()
    const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    expect(summary).toEqual([])
    // And with a toast on screen.
    await page.getByRole('link', { name: content.footer.contactSupport }).click()
    await toasts(page).first().waitFor()
    // Measured once its fade-in has finished, as it is read.
    await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'))
    const withToast = await axeOn(page).analyze()
    expect(
      withToast.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary}`).join(', ')}`),
    ).toEqual([])
    await page.context().close()
  })

  it.each(['light', 'dark'] as const)(
    'shows every icon and every icon tile at 3:1 or more against what is behind it (%s)',
    async (colorScheme) => {
      const { page } = await visit(suite.browser, `${suite.server.url}/`, { colorScheme, viewport: { width: 1280, height: 800 } })
      await waitForHydration(page)
      // The app preview is one picture (role img), measured as a whole by axe; its inner glyphs are not controls.
      const findings = await measureIconContrast(page, `[role="img"][aria-label="${content.hero.phone.ariaLabel}"]`)
      expect(findings.length).toBeGreaterThan(20)
      expect(findings.filter((f) => f.ratio < 3)).toEqual([])
      await page.context().close()
    },
  )

  it.each(['light', 'dark'] as const)('finds no violation on the page for an unknown address (%s)', async (colorScheme) => {
    const { page } = await visit(suite.browser, `${suite.server.url}/nope`, { colorScheme, viewport: { width: 390, height: 844 } })
    await page.getByRole('heading', { level: 1, name: content.notFound.heading }).waitFor()
    const results = await axeOn(page).analyze()
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    await page.context().close()
  })

  it.each(['light', 'dark'] as const)(
    'finds no violation without the page script, a message of the form on screen (%s)',
    async (colorScheme) => {
      // axe itself needs JavaScript: the page's own script is blocked instead, as when it never loads.
      const { page } = await visit(suite.browser, `${suite.server.url}/#waitlist-invalid`, { colorScheme }, async (p) => {
        await p.route('**/assets/*.js', (route) => route.abort())
      })
      expect(await page.locator('#waitlist-invalid').isVisible()).toBe(true)
      // The scheme is chosen by CSS alone, so it is right from the first paint (no flash).
      await expectScheme(page, colorScheme)
      const results = await axeOn(page).analyze()
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary}`).join(', ')}`),
      ).toEqual([])
      await page.context().close()
    },
  )
})
