// The README's screenshots of an app link's page (/app/<code>) as an iPhone shows it, light and dark,
// and with `--all` the review's: 320, 390 and 1280 px, light and dark, each language and phone:
// `npx tsx scripts/app-screenshots.ts [outdir] [--all]` after `npm run build`. A temporary SQLite
// database; nothing leaves 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Platform } from '../contract/app'
import { LOCALES, type Locale } from '../contract/locales'
import { buildApp } from '../server/app'
import { loadConfig } from '../server/config'
import { launchChromium } from '../tests/support/chromium'
import { USER_AGENTS } from '../tests/support/devices'
import { outboxSettled } from '../tests/support/outbox'
import { row } from '../tests/support/rows'

const outDir = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'docs/screenshots'
const all = process.argv.includes('--all')
const dir = mkdtempSync(join(tmpdir(), 'kennect-app-shots-'))
const config = loadConfig({
  HOST: '127.0.0.1',
  PORT: '0',
  SQLITE_PATH: join(dir, 'waitlist.db'),
  MAIL_DIR: join(dir, 'mail'),
  MAIL_RATE_PER_SECOND: '0',
  SITE_URL: 'https://kennect.app',
  APP_STORE_URL: 'https://apps.apple.com/app/kennect/id6400000000',
  PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=app.kennect.android',
  LOG_LEVEL: 'silent',
})
const app = await buildApp(config, { logger: false })
await app.listen({ host: '127.0.0.1', port: 0 })
const address = app.server.address()
if (!address || typeof address === 'string') throw new Error('no address')
const url = `http://127.0.0.1:${address.port}`
const browser = await launchChromium()

try {
  // One sign-up per language, each given its app link by a campaign mail.
  const codes = new Map<Locale, string>()
  for (const locale of LOCALES) await app.store.add(row(`app-${locale}@example.com`, { locale }))
  const campaign = await app.store.campaigns.create({
    subject: 'Kennect is here',
    markdown: '{{app_link}}',
    translations: {},
    segment: { includeUnconfirmed: true },
  })
  await app.store.campaigns.send(campaign)
  app.mailer.nudge()
  await outboxSettled(app.store)
  for (const locale of LOCALES) {
    const [listed] = await app.store.list({ limit: 1, search: `app-${locale}@` })
    const code = (await app.store.visitors.data(listed?.id ?? 0)).app.code
    if (!code) throw new Error(`no app link for ${locale}`)
    codes.set(locale, code)
  }
  const shoot = async (path: string, locale: Locale, device: Platform, width: number, colorScheme: 'light' | 'dark') => {
    const page = await browser.newPage({
      viewport: { width, height: width < 1000 ? 844 : 800 },
      deviceScaleFactor: 1,
      colorScheme,
      userAgent: USER_AGENTS[device],
    })
    await page.goto(`${url}/app/${codes.get(locale)}`, { waitUntil: 'networkidle' })
    await page.screenshot({ path, fullPage: true })
    await page.close()
    console.log(path)
  }
  for (const colorScheme of ['light', 'dark'] as const)
    await shoot(`${outDir}/app-390${colorScheme === 'dark' ? '-dark' : ''}.png`, 'en', 'ios', 390, colorScheme)
  if (all)
    for (const locale of LOCALES)
      for (const device of ['ios', 'android', 'other'] as const)
        for (const width of [320, 390, 1280])
          for (const colorScheme of ['light', 'dark'] as const)
            await shoot(`${outDir}/app-${locale}-${device}-${width}-${colorScheme}.png`, locale, device, width, colorScheme)
} finally {
  await browser.close()
  await app.close()
  rmSync(dir, { recursive: true, force: true })
}
