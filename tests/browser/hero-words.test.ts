// Every word of the hero whole, in every language, at 320, 390 and 1280 px (issue 30, item 3):
// no text outside the screen or cut by a box that clips it (the phone's rounded screen), and none
// under an icon (the Polish "Najlepsze dopasowania" ran under the filter icon, the French and
// Spanish actions spilled out of the phone). Measured in Chromium on each text's own line boxes,
// and on every box drawn.
import { describe, expect, it } from 'vitest'
import { LOCALES, localePath } from '../../contract/locales'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { resizeTo } from '../support/page'

const WIDTHS = [320, 390, 1280]

describe.skipIf(!chromiumAvailable)("the hero's words", () => {
  // Both stores named (PLAY_STORE_URL): the longer line and the second badge.
  const suite = useServerAndBrowser({ PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=app.kennect.android' })

  it.each(LOCALES)('are whole in %s at 320, 390 and 1280 px, with and without JavaScript', async (locale) => {
    for (const javaScriptEnabled of [false, true]) {
      // Loaded once at the narrowest width, then widened, as a phone turned or a window dragged:
      // the hero's layout is CSS's answer to each width (a load costs about three resizes here).
      const context = await suite.browser.newContext({ viewport: { width: WIDTHS[0] ?? 320, height: 900 }, javaScriptEnabled })
      try {
        const page = await context.newPage()
        await page.goto(`${suite.server.url}${localePath(locale)}`)
        for (const width of WIDTHS) {
          await resizeTo(page, width, 900)
          const problems = await page.evaluate(() => {
            const hero = document.getElementById('hero-heading')?.closest('section')
            if (!hero) return ['no hero']
            const found: string[] = []
            const icons = [...hero.querySelectorAll('svg.icon')].map((icon) => icon.getBoundingClientRect())
            const overlaps = (a: DOMRect, b: DOMRect) =>
              Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1
            const walker = document.createTreeWalker(hero, NodeFilter.SHOW_TEXT)
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const text = node.textContent?.trim() ?? ''
              const parent = node.parentElement
              if (!text || !parent || parent.closest('[aria-hidden="true"], .sr-only, style, script')) continue
              const range = document.createRange()
              range.selectNodeContents(node)
              const lines = [...range.getClientRects()].filter((rect) => rect.width > 0)
              // Every box that clips what overflows it, up to the page.
              const clips: DOMRect[] = []
              for (let box: Element | null = parent; box && box !== document.body; box = box.parentElement) {
                const style = getComputedStyle(box)
                if (style.overflowX !== 'visible' || style.overflowY !== 'visible') clips.push(box.getBoundingClientRect())
              }
              for (const line of lines) {
                const where = `"${text.slice(0, 40)}" at ${Math.round(line.left)}-${Math.round(line.right)}`
                if (line.left < -0.5 || line.right > document.documentElement.clientWidth + 0.5) found.push(`${where}: off the screen`)
                for (const clip of clips)
                  if (
                    line.left < clip.left - 0.5 ||
                    line.right > clip.right + 0.5 ||
                    line.top < clip.top - 0.5 ||
                    line.bottom > clip.bottom + 0.5
                  )
                    found.push(`${where}: cut by its box (${Math.round(clip.left)}-${Math.round(clip.right)})`)
                if (icons.some((icon) => overlaps(line, icon))) found.push(`${where}: under an icon`)
              }
            }
            // And every box drawn (a button, a chip, a card): inside what clips it.
            for (const element of hero.querySelectorAll('*')) {
              if (element.closest('[aria-hidden="true"], .sr-only')) continue
              const rect = element.getBoundingClientRect()
              if (rect.width === 0 || rect.height === 0) continue
              for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
                const style = getComputedStyle(box)
                if (style.overflowX === 'visible' && style.overflowY === 'visible') continue
                const clip = box.getBoundingClientRect()
                if (rect.left < clip.left - 0.5 || rect.right > clip.right + 0.5)
                  found.push(
                    `${element.tagName} "${element.textContent?.trim().slice(0, 30)}" at ${Math.round(rect.left)}-${Math.round(rect.right)}: cut by its box`,
                  )
              }
            }
            return found
          })
          expect(problems, `${locale} at ${width} px${javaScriptEnabled ? '' : ' without JavaScript'}`).toEqual([])
        }
      } finally {
        await context.close()
      }
    }
  })
})
