// The hero of every language at 390 px, for the README's folder and review:
// `npx tsx scripts/hero-screenshots.ts [origin] [outdir]` while the server runs. Each is the hero
// section alone (the phone's words are what a longer language puts to the test).
import { LOCALES, localePath } from '../contract/locales'
import { launchChromium } from '../tests/support/chromium'

const origin = process.argv[2] ?? 'http://127.0.0.1:3000'
const outDir = process.argv[3] ?? 'docs/screenshots'

const browser = await launchChromium()
for (const locale of LOCALES) {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 })
  await page.goto(`${origin}${localePath(locale)}`, { waitUntil: 'networkidle' })
  const path = `${outDir}/hero-${locale}-390.png`
  await page.locator('section', { has: page.locator('#hero-heading') }).screenshot({ path })
  await page.close()
  console.log(path)
}
await browser.close()
