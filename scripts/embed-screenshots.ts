// docs/partners.md's screenshots: a partner's embed at 390 px on a plain club page (another origin,
// as on a club's site), light and dark, its meter showing a breed in a country: `npx tsx
// scripts/embed-screenshots.ts [outdir]` after `npm run build`. Nothing leaves 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EMBED_SCRIPT_PATH } from '../contract/partners'
import { buildApp } from '../server/app'
import { loadConfig } from '../server/config'
import { figureKey } from '../server/growth/public-figures'
import { newPartnerKey } from '../server/partners/fields'
import { launchChromium } from '../tests/support/chromium'
import { startHostSite } from '../tests/support/host-site'
import { profileOf } from '../tests/support/profile'
import { secretWhere } from '../tests/support/public-figures'
import { row } from '../tests/support/rows'
import { PUBLIC_FIGURES_SETTING } from '../server/growth/public-figures'

const outDir = process.argv[2] ?? 'docs/screenshots'
const dir = mkdtempSync(join(tmpdir(), 'kennect-embed-'))
const config = loadConfig({
  HOST: '127.0.0.1',
  PORT: '0',
  SQLITE_PATH: join(dir, 'waitlist.db'),
  MAIL_DIR: join(dir, 'mail'),
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '0',
  RATE_LIMIT_PER_HOUR: '0',
})
const app = await buildApp(config, { logger: false })
await app.listen({ host: '127.0.0.1', port: 0 })
const site = app.siteUrl()
const key = newPartnerKey()
const host = await startHostSite((path) =>
  path === '/'
    ? {
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="color-scheme" content="light dark"><title>Labrador Club</title></head>
<body style="font-family: Georgia, serif; margin: 16px"><h1>Labrador Club</h1>
<p>Kennect matches breeders of health-tested dogs. Join its waitlist: the more of our members, the sooner it opens for Labradors here.</p>
<script src="${site}${EMBED_SCRIPT_PATH}" data-partner="${key}" async></script>
<p>Our next meeting is on the first of May.</p></body></html>`,
      }
    : undefined,
)

try {
  // Labrador breeders in Germany: studs and dams shown, each figure's offset 0 for the picture.
  const { secret } = secretWhere({
    [figureKey.breed('labrador-retriever', 'DE', 'studs')]: (o) => o === 0,
    [figureKey.breed('labrador-retriever', 'DE', 'dams')]: (o) => o === 0,
  })
  await app.store.settings.write(PUBLIC_FIGURES_SETTING, secret)
  for (let i = 0; i < 36; i++) {
    await app.store.add(row(`breeder-${i}@example.com`))
    const id = (await app.store.list({ limit: 1, search: `breeder-${i}@` }))[0]?.id ?? 0
    await app.store.visitors.confirm(id)
    const side = i < 23 ? 'stud' : 'dam'
    await app.store.visitors.saveProfile(id, profileOf({ role: 'breeder', breeds: [{ name: 'Labrador', side }], country: 'DE' }))
  }
  await app.store.partners.add(
    { name: 'Labrador Club', origins: [host.origin], thanks_url: null, breed: 'labrador-retriever', country: 'DE', key },
    { actorId: null, actor: 'screenshots', action: 'partner added', target: null, detail: null, requestId: null },
  )
  const browser = await launchChromium()
  for (const colorScheme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ viewport: { width: 390, height: 900 }, deviceScaleFactor: 1, colorScheme, locale: 'en-GB' })
    await page.goto(host.origin)
    await page.getByRole('textbox', { name: 'Email address' }).waitFor()
    const path = `${outDir}/embed-390${colorScheme === 'dark' ? '-dark' : ''}.png`
    await page.screenshot({ path, fullPage: true })
    console.log(path)
    await page.close()
  }
  await browser.close()
} finally {
  await host.close()
  await app.close()
  rmSync(dir, { recursive: true, force: true })
}
