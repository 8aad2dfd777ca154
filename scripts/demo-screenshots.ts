// The README's screenshots of the visitor's page (its launch meter and invite link) and of the admin
// page (funnel, meters, inviters, deliverability), on a demo story written into a temporary SQLite database:
// `npx tsx scripts/demo-screenshots.ts [outdir]` after `npm run build`. Nothing leaves 127.0.0.1.
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../server/app'
import { loadConfig } from '../server/config'
import { launchChromium } from '../tests/support/chromium'
import { confirmOnPage, joinWithLink } from '../tests/support/page-links'
import { seedSignUps } from '../tests/support/seed'
import type { TestServer } from '../tests/support/server'
import { joinTeam } from '../tests/support/team'
import { newWebhookSecret } from '../server/webhooks/routes'
import { profileOf } from '../tests/support/profile'
import { outboxSettled } from '../tests/support/outbox'
import { row } from '../tests/support/rows'

const outDir = process.argv[2] ?? 'docs/screenshots'
const dir = mkdtempSync(join(tmpdir(), 'kennect-demo-'))
const config = loadConfig({
  HOST: '127.0.0.1',
  PORT: '0',
  SQLITE_PATH: join(dir, 'waitlist.db'),
  MAIL_DIR: join(dir, 'mail'),
  MAIL_RATE_PER_SECOND: '0',
  TRUST_PROXY: 'loopback',
  SITE_URL: 'https://kennect.app',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '0',
  RATE_LIMIT_PER_HOUR: '0',
})
const app = await buildApp(config, { logger: false })
await app.listen({ host: '127.0.0.1', port: 0 })
const address = app.server.address()
if (!address || typeof address === 'string') throw new Error('no address')
const url = `http://localhost:${address.port}`
const server = { url, app, config, store: 'sqlite', close: async () => undefined } satisfies TestServer
const readerRow = (email: string) => ({ ...row(email), utm_source: 'newsletter' })
const settled = () => outboxSettled(app.store)

try {
  // Who waits where: Germany two thirds of the way, Ireland ready.
  await app.store.growth.setLaunchTargets({ default: { breeders: 50, owners: 200 }, countries: { DE: { breeders: 80, owners: 400 } } })
  const place = async (prefix: string, country: 'DE' | 'IE' | 'FR', breeders: number, owners: number) => {
    const seeded = await seedSignUps({ SQLITE_PATH: config.SQLITE_PATH }, { confirmed: breeders + owners, prefix })
    const rows = await app.store.list({ limit: 1000, search: `${prefix}-` })
    for (const [i, row] of rows.entries())
      await app.store.visitors.saveProfile(
        row.id,
        profileOf({
          role: i < breeders ? 'breeder' : 'owner',
          // Breeders bring a stud or a dam; owners look for a puppy.
          breeds: [{ name: 'Labrador Retriever', side: i < breeders ? (i % 2 === 0 ? 'stud' : 'dam') : 'seeker' }],
          country,
        }),
      )
    return seeded
  }
  await place('de', 'DE', 30, 122)
  await place('ie', 'IE', 52, 214)
  await place('fr', 'FR', 12, 40)
  // Breeders of a dozen breeds in seven countries, some near their target, for the breeds' picture.
  const BREEDS = [
    'Golden Retriever',
    'German Shepherd Dog',
    'French Bulldog',
    'Dachshund',
    'Border Collie',
    'Pug',
    'Beagle',
    'Poodle',
    'Rottweiler',
    'Boxer',
    'Dalmatian',
  ]
  const COUNTRIES = ['DE', 'PL', 'FR', 'IT', 'ES', 'GB', 'NL'] as const
  await app.store.breeds.setTargets({
    default: { studs: 20, dams: 20 },
    breeds: { pug: { studs: 8, dams: 8 }, dachshund: { studs: 12, dams: 15 } },
  })
  for (const [b, breed] of BREEDS.entries())
    for (const [c, country] of COUNTRIES.entries()) {
      const studs = (b * 7 + c * 5) % 23
      const dams = (b * 5 + c * 11 + 3) % 23
      const prefix = `breed-${b}-${c}`
      if (studs + dams === 0) continue
      await seedSignUps({ SQLITE_PATH: config.SQLITE_PATH }, { confirmed: Math.max(studs, dams), prefix })
      const rows = await app.store.list({ limit: 1000, search: `${prefix}-` })
      for (const [i, row] of rows.entries())
        await app.store.visitors.saveProfile(
          row.id,
          profileOf({
            role: 'breeder',
            breeds: [{ name: breed, side: i < Math.min(studs, dams) ? 'both' : studs > dams ? 'stud' : 'dam' }],
            country,
          }),
        )
    }
  // The visitor: confirmed, a breeder in Germany, two friends joined through the link, one confirmed.
  const ada = await joinWithLink(server, 'ada.lovelace@example.com', { utm_source: 'dogshow' })
  await confirmOnPage(server, ada.token)
  await app.store.visitors.saveProfile(
    ada.id,
    profileOf({
      role: 'breeder',
      breeds: [{ name: 'Labrador', side: 'dam', tests: ['hips', 'elbows'] }],
      country: 'DE',
      club: 'VDH',
      litters: 1,
    }),
  )
  const code = (await app.store.visitors.data(ada.id)).invite.code
  const bea = await joinWithLink(server, 'bea@example.com', { invite: code })
  await confirmOnPage(server, bea.token)
  await joinWithLink(server, 'cem@example.com', { invite: code })
  // Two weeks of a launch: the seeded sign-ups spread over the days they came, from the places they
  // came from, and the views of those days as the server would have counted them.
  const db = new Database(config.SQLITE_PATH)
  const sources = ['dogshow', 'breedclub', 'instagram', null] as const
  const spread = db.prepare('UPDATE waitlist SET created_at = ?, utm_source = ? WHERE id = ?')
  const addViews = db.prepare('INSERT INTO page_views (day, source, views, visitors) VALUES (?, ?, ?, ?)')
  const dayOf = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10)
  const ids = db.prepare(`SELECT id FROM waitlist WHERE email LIKE '%-confirmed-%'`).pluck().all() as number[]
  ids.forEach((id, i) => spread.run(`${dayOf(1 + (i % 14))}T10:00:00.000Z`, sources[i % 4] ?? null, id))
  for (let back = 1; back <= 14; back++)
    for (const [n, source] of [
      [90, 'dogshow'],
      [60, 'breedclub'],
      [110, 'instagram'],
      [70, 'direct'],
    ] as const)
      addViews.run(dayOf(back), source, n + back * 3, Math.round((n + back * 3) * 0.8))
  db.close()
  // Today's views, counted as the page is sent.
  const visit = (ip: string, path: string) =>
    fetch(`${url}${path}`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/156 Safari/537.36', 'x-forwarded-for': ip } })
  for (let i = 0; i < 40; i++) await visit(`198.51.100.${i}`, i < 25 ? '/?utm_source=dogshow' : '/')
  for (let i = 0; i < 12; i++) await visit(`203.0.113.${i}`, `/?utm_source=${i < 6 ? 'breedclub' : 'instagram'}`)

  // Deliverability: a newsletter's readers at the big mailbox providers, confirmed, and two waves
  // to them; then what the providers reported back (a few dead mailboxes, full ones, one complaint).
  const providers = [
    'gmail.com',
    'gmail.com',
    'gmail.com',
    'outlook.com',
    'yahoo.com',
    'web.de',
    'gmx.de',
    'orange.fr',
    'icloud.com',
    't-online.de',
  ]
  for (let i = 0; i < 360; i++) await app.store.add({ ...readerRow(`reader${i}@${providers[i % providers.length] ?? 'gmail.com'}`) })
  await settled()
  const readers = await app.store.list({ limit: 1000, search: 'reader' })
  for (const reader of readers) await app.store.visitors.confirm(reader.id)
  for (const subject of ['Early access for breeders', 'Kennect opens in Ireland']) {
    const id = await app.store.campaigns.create({ subject, markdown: 'Hello.', translations: {}, segment: { sources: ['newsletter'] } })
    await app.store.campaigns.send(id)
    await settled()
  }
  const mailDb = new Database(config.SQLITE_PATH, { readonly: true })
  const campaignMails = mailDb
    .prepare(`SELECT id FROM outbox WHERE kind = 'campaign' AND state = 'sent' ORDER BY campaign_id, id`)
    .pluck()
    .all() as number[]
  mailDb.close()
  for (const [i, outboxId] of campaignMails.entries()) {
    const type = i % 53 === 7 ? 'hard-bounce' : i % 97 === 11 ? 'soft-bounce' : i === 400 ? 'complaint' : null
    if (type) await app.suppressions.report({ outboxId, type, source: type === 'complaint' ? 'fbl' : 'mta' })
  }
  for (const reader of readers.slice(0, 9)) await app.store.visitors.setSubscribed(reader.id, false)
  await app.suppressions.hash('noreply@example.net').then((hash) => app.store.suppressions.add('noreply@example.net', hash))

  const browser = await launchChromium()
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1, colorScheme })
      await page.goto(`${url}/me/${ada.token}`)
      const card = page.locator('#launch')
      await card.scrollIntoViewIfNeeded()
      const path = `${outDir}/visitor-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`
      await page.screenshot({ path, fullPage: true })
      console.log(path)
      await page.close()
    }
  }
  // The team: an owner (signed in here), an editor and a viewer, and an invitation on its way.
  const owner = await joinTeam(server, 'olivia@kennect.app', 'owner')
  await joinTeam(server, 'ed@kennect.app', 'editor')
  await joinTeam(server, 'vera@kennect.app', 'viewer')
  await fetch(`${url}/admin/api/operators`, {
    method: 'POST',
    headers: { cookie: owner.cookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'sam@kennect.app', role: 'editor' }),
  })
  // A webhook endpoint for the team's CRM (this machine reaches no such host: its log shows why).
  await app.store.webhooks.addEndpoint(
    {
      url: 'https://hooks.example.com/kennect',
      description: 'CRM',
      events: ['signup.created', 'signup.confirmed', 'country.ready'],
      enabled: true,
      include_email: false,
      secret: newWebhookSecret(),
    },
    { actorId: owner.id, actor: owner.email, action: 'webhook created', target: null, detail: null, requestId: null },
  )
  // SITE_URL is https: the cookie is __Host- (Chromium keeps Secure cookies for localhost).
  const session = {
    name: owner.cookie.split('=')[0] ?? '',
    value: owner.sessionId,
    domain: 'localhost',
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'Strict' as const,
  }
  for (const width of [390, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 })
    await context.addCookies([session])
    const page = await context.newPage()
    await page.goto(`${url}/admin`)
    await page.getByRole('heading', { name: 'Funnel' }).waitFor()
    await page.waitForLoadState('networkidle')
    const path = `${outDir}/admin-${width}.png`
    await page.screenshot({ path, fullPage: width === 1280 })
    console.log(path)
    if (width === 1280) {
      // The funnel on its own, for the README.
      const funnel = `${outDir}/admin-funnel-${width}.png`
      await page.locator('section[aria-labelledby="funnel-heading"]').screenshot({ path: funnel })
      console.log(funnel)
    }
    for (const [view, wait] of [
      ['demand', /Ireland/],
      ['breeds', /Names the catalogue missed/],
      ['team', /vera@kennect\.app/],
      ['webhooks', /hooks\.example\.com/],
      ['deliverability', /reader\d+@/],
    ] as const) {
      await page.goto(`${url}/admin/${view}`)
      await page.getByText(wait).first().waitFor()
      await page.waitForLoadState('networkidle')
      const shot = `${outDir}/admin-${view}-${width}.png`
      await page.screenshot({ path: shot, fullPage: width === 1280 })
      console.log(shot)
    }
    await context.close()
  }
  // The breeds' picture alone, in both of the admin's schemes.
  for (const width of [390, 1280])
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1, colorScheme })
      await context.addCookies([session])
      const page = await context.newPage()
      await page.goto(`${url}/admin/breeds`)
      const grid = page.locator('section[aria-labelledby="breeds-grid-heading"]')
      await grid.getByRole('table').waitFor()
      await page.waitForLoadState('networkidle')
      const shot = `${outDir}/admin-breeds-grid-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`
      await grid.screenshot({ path: shot })
      console.log(shot)
      await context.close()
    }
  await browser.close()
} finally {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
}
