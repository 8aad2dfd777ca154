// Each country's launch meter (docs/decisions/015-growth.md), over HTTP on both stores: the targets
// the team sets (checked field by field), GET /api/launch (countries with 10 or more confirmed
// sign-ups only, cached at most a minute), the visitor's own meter, the segment of ready
// countries, and the landing page's total from 100 confirmed sign-ups on.
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_LAUNCH_TARGETS, type LaunchAnswer, type LaunchTargets } from '../../contract/growth'
import { content } from '../../web/content'
import { englishVisitorContent as visitorContent } from '../../web/visitor/content'
import { confirmOnPage, joinWithLink } from '../support/page-links'
import { seedSignUps } from '../support/seed'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { profileOf } from '../support/profile'

const ADMIN_TOKEN = 'admin-token-for-the-launch-tests-0123'

describe.each(STORES)('launch meters on $kind', ({ kind, available }) => {
  let server: TestServer
  afterEach(() => server?.close())
  const start = async () => {
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' }, kind)
    return server
  }
  const storeEnv = () => (kind === 'postgres' ? { DATABASE_URL: server.config.DATABASE_URL } : { SQLITE_PATH: server.config.SQLITE_PATH })
  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/admin/api${path}`, {
      ...init,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', ...init.headers },
    })
  const putTargets = (body: unknown) => admin('/launch-targets', { method: 'PUT', body: JSON.stringify(body) })
  /** Confirmed sign-ups with a role in a country, written straight into the store's database. */
  async function seedCountry(prefix: string, country: string, breeders: number, owners: number, unconfirmed = 0) {
    const seeded = await seedSignUps(storeEnv(), { confirmed: breeders + owners, unconfirmed, prefix })
    const ids = new Map((await server.app.store.list({ limit: 1000, search: `${prefix}-` })).map((r) => [r.email, r.id]))
    for (const [i, email] of [...seeded.confirmed, ...seeded.unconfirmed].entries()) {
      const role = i < breeders ? 'breeder' : i < breeders + owners ? 'owner' : 'breeder'
      await server.app.store.visitors.saveProfile(ids.get(email) ?? 0, profileOf({ role, breeds: [], country: country as 'DE' }))
    }
    return seeded
  }

  it.skipIf(!available)('keeps the targets the team sets, and refuses bad ones naming the field, changing nothing', async () => {
    await start()
    expect(await (await admin('/launch-targets')).json()).toEqual(DEFAULT_LAUNCH_TARGETS)
    const targets: LaunchTargets = { default: { breeders: 40, owners: 150 }, countries: { DE: { breeders: 80, owners: 400 } } }
    const saved = await putTargets({ ...targets, countries: { de: targets.countries.DE } })
    expect(saved.status).toBe(200)
    expect(await saved.json()).toEqual(targets) // the code in upper case, as kept
    for (const [body, field] of [
      [{ default: { breeders: 1.5, owners: 1 }, countries: {} }, 'default.breeders'],
      [{ default: { breeders: 1, owners: -1 }, countries: {} }, 'default.owners'],
      [{ default: { breeders: 1, owners: 1_000_001 }, countries: {} }, 'default.owners'],
      [{ default: { breeders: '5', owners: 1 }, countries: {} }, 'default.breeders'],
      [{ default: { breeders: 1, owners: 1 }, countries: { XX: { breeders: 1, owners: 1 } } }, 'countries.XX'],
      [{ default: { breeders: 1, owners: 1 }, countries: { FR: { breeders: 1 } } }, 'countries.FR.owners'],
      [{ default: { breeders: 1, owners: 1, clubs: 2 }, countries: {} }, 'default.clubs'],
      [{ countries: {} }, 'default'],
      [[], 'body'],
    ] as const) {
      const refused = await putTargets(body)
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(((await refused.json()) as { message: string }).message).toContain(field)
    }
    expect(await (await admin('/launch-targets')).json()).toEqual(targets)
  })

  it.skipIf(!available)('answers the meters of countries with 10 or more confirmed sign-ups only, for at most a minute', async () => {
    await start()
    await putTargets({ default: { breeders: 5, owners: 5 }, countries: { IE: { breeders: 3, owners: 6 } } })
    await seedCountry('de', 'DE', 6, 4, 5) // 10 confirmed: shown, and ready (6 ≥ 5, 4 < 5: not ready)
    await seedCountry('ie', 'IE', 4, 6) // 10 confirmed, ready with its own targets
    await seedCountry('lu', 'LU', 5, 4) // 9 confirmed: never shown
    const answer = await fetch(`${server.url}/api/launch`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    const maxAge = Number(/^public, max-age=(\d+)$/.exec(answer.headers.get('cache-control') ?? '')?.[1])
    expect(maxAge).toBeGreaterThan(50)
    expect(maxAge).toBeLessThanOrEqual(60)
    expect(((await answer.json()) as LaunchAnswer).countries).toEqual([
      { country: 'IE', breeders: 4, owners: 6, target: { breeders: 3, owners: 6 }, ready: true },
      { country: 'DE', breeders: 6, owners: 4, target: { breeders: 5, owners: 5 }, ready: false },
    ])
    // Setting the targets counts again at once; otherwise the answer is the minute's.
    await putTargets({ default: { breeders: 5, owners: 4 }, countries: {} })
    const again = (await (await fetch(`${server.url}/api/launch`)).json()) as LaunchAnswer
    expect(again.countries.map((c) => [c.country, c.ready])).toEqual([
      ['DE', true],
      ['IE', false],
    ])
    // The team sees every country, the ready ones first.
    const segments = (await (await admin('/segments')).json()) as { meters: LaunchAnswer['countries'] }
    expect(segments.meters.map((m) => [m.country, m.ready])).toEqual([
      ['DE', true],
      ['LU', true],
      ['IE', false],
    ])
  })

  it.skipIf(!available)(
    "shows the visitor their country's meter, lowered by an unsubscribe or a deletion, and asks for a country",
    async () => {
      await start()
      await putTargets({ default: { breeders: 80, owners: 400 }, countries: {} })
      const seeded = await seedCountry('ger', 'DE', 31, 122)
      const { token, id } = await joinWithLink(server, 'visitor@example.com')
      const page = async () => (await fetch(`${server.url}/me/${token}`)).text()
      expect(await page()).toContain(visitorContent.launch.askCountry)
      await server.app.store.visitors.saveProfile(id, profileOf({ role: 'owner', breeds: [], country: 'DE' }))
      const meter = (breeders: number, owners: number) =>
        visitorContent.launch.meter('Germany', { country: 'DE', breeders, owners, target: { breeders: 80, owners: 400 }, ready: false })
      expect(meter(31, 122)).toBe('Germany: 31 of 80 breeders, 122 of 400 owners')
      expect(await page()).toContain(meter(31, 122)) // not confirmed: not counted yet
      await confirmOnPage(server, token)
      expect(await page()).toContain(meter(31, 123))
      const [breeder] = await server.app.store.list({ limit: 1, search: seeded.confirmed[0] })
      await server.app.store.visitors.setSubscribed(breeder?.id ?? 0, false)
      expect(await page()).toContain(meter(30, 123))
      await server.app.store.remove(seeded.confirmed[1] ?? '')
      expect(await page()).toContain(meter(29, 123))
    },
  )

  it.skipIf(!available)('lets a campaign go to the countries that are ready only', async () => {
    await start()
    await putTargets({ default: { breeders: 2, owners: 2 }, countries: {} })
    await seedCountry('full', 'FR', 2, 2)
    await seedCountry('half', 'ES', 2, 1)
    const draft = async (segment: object) =>
      (
        (await (
          await admin('/campaigns', { method: 'POST', body: JSON.stringify({ subject: 'Open', markdown: 'Hi', segment, send: false }) })
        ).json()) as { recipients: number }
      ).recipients
    expect(await draft({})).toBe(7)
    expect(await draft({ readyCountries: true })).toBe(4)
    expect(await draft({ readyCountries: true, roles: ['owner'] })).toBe(2)
    await putTargets({ default: { breeders: 3, owners: 3 }, countries: {} })
    expect(await draft({ readyCountries: true })).toBe(0) // none ready: nobody, not everybody
    // Sending works the ready countries out as it queues.
    await putTargets({ default: { breeders: 2, owners: 1 }, countries: {} })
    const sent = await admin('/campaigns', {
      method: 'POST',
      body: JSON.stringify({ subject: 'Open', markdown: 'Hi', segment: { readyCountries: true }, send: true }),
    })
    expect(await sent.json()).toMatchObject({ recipients: 7 })
  })

  it.skipIf(!available)('says on the landing page how many wait from 100 confirmed sign-ups, rounded down to the ten', async () => {
    await start()
    const hero = async () => {
      const html = await (await fetch(`${server.url}/`)).text()
      return { note: html.includes(content.hero.note), waiting: /(\d[\d,]*) breeders and dog owners are waiting/.exec(html)?.[1] ?? null }
    }
    await seedSignUps(storeEnv(), { confirmed: 98, unsubscribed: 30, unconfirmed: 30, prefix: 'many' })
    const last = await joinWithLink(server, 'ninety-nine@example.com')
    await confirmOnPage(server, last.token)
    expect(await hero()).toEqual({ note: true, waiting: null }) // 99 confirmed (the unsubscribed are not waiting)
    const hundredth = await joinWithLink(server, 'hundred@example.com')
    await confirmOnPage(server, hundredth.token)
    expect(await hero()).toEqual({ note: false, waiting: '100' })
    await seedSignUps(storeEnv(), { confirmed: 1149, prefix: 'more' })
    server.app.waiting.changed() // as a confirmation here would; another instance's show within 15 s
    expect(await hero()).toEqual({ note: false, waiting: '1,240' })
  })
})
