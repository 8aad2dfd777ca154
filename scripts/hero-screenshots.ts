// The hero of every language at 390 px, for the README's folder and review:
// `npx tsx scripts/hero-screenshots.ts [origin] [outdir]` while the server runs. Each is the hero
// section alone (the phone's words are what a longer language puts to the test).
// `… --stores`: the English hero at 320 and 1280 px, light and dark (hero-stores-…), for a server
// started with PLAY_STORE_URL: both store badges.
import { LOCALES, localePath } from '../contract/locales'
import { launchChromium } from '../tests/support/chromium'

const [origin = 'http://127.0.0.1:3000', outDir = 'docs/screenshots'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
const stores = process.argv.includes('--stores')

const shots = stores
  ? [320, 1280].flatMap((width) =>
      (['light', 'dark'] as const).map((scheme) => ({
        locale: 'en' as const,
        width,
        scheme,
        name: `hero-stores-${width}${scheme === 'dark' ? '-dark' : ''}`,
      })),
    )
  : LOCALES.map((locale) => ({ locale, width: 390, scheme: 'light' as const, name: `hero-${locale}-390` }))

const browser = await launchChromium()
for (const { locale, width, scheme, name } of shots) {
  const page = await browser.newPage({ viewport: { width, height: 844 }, deviceScaleFactor: 1, colorScheme: scheme })
  await page.goto(`${origin}${localePath(locale)}`, { waitUntil: 'networkidle' })
  const path = `${outDir}/${name}.png`
  await page.locator('section', { has: page.locator('#hero-heading') }).screenshot({ path })
  await page.close()
  console.log(path)
}
await browser.close()
