// Every language's page on a narrow phone: nothing wider than the screen (no sideways scrolling),
// the header's way to the form and its language switcher in sight.
import { describe, expect, it } from 'vitest'
import { LOCALES, localePath } from '../../contract/locales'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'

describe.skipIf(!chromiumAvailable)('the page on a narrow phone', () => {
  const suite = useServerAndBrowser()

  it.each(LOCALES.flatMap((locale) => [360, 390].map((width) => [locale, width] as const)))(
    '%s at %i px scrolls only down',
    async (locale, width) => {
      const page = await suite.browser.newPage({ viewport: { width, height: 800 } })
      await page.goto(`${suite.server.url}${localePath(locale)}`)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      for (const item of await page.locator('header a, header summary').all()) {
        const box = await item.boundingBox()
        expect(box && box.x >= 0 && box.x + box.width <= width, await item.innerText()).toBe(true)
      }
      await page.close()
    },
  )
})
