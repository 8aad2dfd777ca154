// Full-page screenshots of the built page at phone and desktop widths, in the light and the dark
// scheme, for the README and review: `npx tsx scripts/screenshots.ts [url] [outdir] [prefix]` while
// the server runs (`… http://127.0.0.1:3000/de/ docs/screenshots de-` for the German page).
import { launchChromium } from '../tests/support/chromium'

const url = process.argv[2] ?? 'http://127.0.0.1:3000/'
const outDir = process.argv[3] ?? 'docs/screenshots'
const prefix = process.argv[4] ?? ''
const widths = [
  { name: 'mobile-390', width: 390, height: 844 },
  { name: 'desktop-1280', width: 1280, height: 800 },
]

for (const colorScheme of ['light', 'dark'] as const) {
  for (const { name, width, height } of widths) {
    const browser = await launchChromium()
    const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1, colorScheme })
    await page.goto(url, { waitUntil: 'networkidle' })
    // Scroll down the page as a reader would, so the drawings below the fold (lazy) are loaded too.
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight)
    for (let y = 0; y < pageHeight; y += 600) await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y)
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }))
    await page.waitForLoadState('networkidle')
    const path = `${outDir}/${prefix}${name}${colorScheme === 'dark' ? '-dark' : ''}.png`
    await page.screenshot({ path, fullPage: true })
    await browser.close()
    console.log(path)
  }
}
