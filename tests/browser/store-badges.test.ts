// The page names the phones the app comes to (issue 49, item 10): with PLAY_STORE_URL on the server,
// the hero's line and the waitlist's sub-text name the App Store and Google Play, and a Google Play
// badge stands beside the App Store's, both leading to the form until launch; without it, the App
// Store alone, as before. One build serves both: the server writes the words in (STORE_SLOTS).
import { describe, expect, it } from 'vitest'
import { LOCALES, localePath } from '../../contract/locales'
import { pageContent } from '../../web/content'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'

const PLAY_STORE_URL = 'https://play.google.com/store/apps/details?id=app.kennect.android'
const WIDTHS = [320, 1280]

/** The hero's line, its store badges (name, text, address, box) and the waitlist's sub-text, as a person sees them. */
async function storesSeen(url: string, width: number, browser: ReturnType<typeof useServerAndBrowser>['browser']) {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  try {
    const page = await context.newPage()
    await page.goto(url)
    const hero = page.locator('main > section').first()
    const eyebrow = await hero.locator('p').first().innerText()
    const badges = await hero.locator('a[aria-label]').evaluateAll((links) =>
      links.map((link) => {
        const box = link.getBoundingClientRect()
        return {
          name: link.getAttribute('aria-label') ?? '',
          text: (link as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
          href: link.getAttribute('href'),
          box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom },
        }
      }),
    )
    const subtext = await page.locator('#waitlist h2 + p').innerText()
    return { eyebrow, badges, subtext, viewport: width }
  } finally {
    await context.close()
  }
}

describe.skipIf(!chromiumAvailable)('the store badges', () => {
  describe('with PLAY_STORE_URL', () => {
    const suite = useServerAndBrowser({ PLAY_STORE_URL })

    it.each(LOCALES)('names both phones and shows both badges side by side or stacked, whole, at 320 and 1280 px (%s)', async (locale) => {
      const content = pageContent(locale)
      for (const width of WIDTHS) {
        const seen = await storesSeen(`${suite.server.url}${localePath(locale)}`, width, suite.browser)
        const where = `${locale} at ${width} px`
        expect(seen.eyebrow, where).toBe(content.hero.eyebrowBothStores)
        expect(seen.subtext, where).toBe(content.waitlist.subtextBothStores)
        expect(
          seen.badges.map(({ name, text, href }) => ({ name, text, href })),
          where,
        ).toEqual([
          { name: content.hero.badge.label, text: `${content.hero.badge.small} ${content.hero.badge.large}`, href: '#waitlist' },
          {
            name: content.hero.playBadge.label,
            text: `${content.hero.playBadge.small} ${content.hero.playBadge.large}`,
            href: '#waitlist',
          },
        ])
        const [apple, google] = seen.badges.map((badge) => badge.box)
        if (!apple || !google) throw new Error('two badges expected')
        for (const box of [apple, google]) {
          expect(box.left, where).toBeGreaterThanOrEqual(0)
          expect(box.right, where).toBeLessThanOrEqual(width)
        }
        // Beside each other or one under the other, never on top of each other.
        expect(apple.right <= google.left || apple.bottom <= google.top, where).toBe(true)
      }
    })

    it('leads to the form from the Google Play badge, as from the App Store’s', async () => {
      const page = await suite.browser.newPage({ viewport: { width: 390, height: 844 } })
      try {
        await page.goto(`${suite.server.url}/`)
        await page.getByRole('link', { name: pageContent('en').hero.playBadge.label }).click()
        await page.waitForURL(/#waitlist$/)
        await expect.poll(() => page.locator('#waitlist').evaluate((section) => section.getBoundingClientRect().top)).toBeLessThan(844)
      } finally {
        await page.context().close()
      }
    })
  })

  describe('without PLAY_STORE_URL', () => {
    const suite = useServerAndBrowser()

    it('names the iPhone and shows the App Store badge alone, as before', async () => {
      const content = pageContent('en')
      const seen = await storesSeen(`${suite.server.url}/`, 390, suite.browser)
      expect(seen.eyebrow).toBe(content.hero.eyebrow)
      expect(seen.subtext).toBe(content.waitlist.subtext)
      expect(seen.badges.map((badge) => badge.name)).toEqual([content.hero.badge.label])
      const html = await (await fetch(`${suite.server.url}/`)).text()
      expect(html).not.toContain('Google Play')
      expect(html).not.toMatch(/@stores-/)
    })
  })
})
