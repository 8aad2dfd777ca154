// Each country's launch meter (docs/decisions/015-growth.md), over HTTP on both stores: the targets
// the team sets (checked field by field), GET /api/launch (public figures, docs/public-figures.md:
// a country where one shows, cached at most a minute), the visitor's own meter, the segment of
// ready countries (exact), and the landing page's total from 100 on.
import { afterEach, describe, expect, it } from 'vitest'
import { type CountryMeter, DEFAULT_LAUNCH_TARGETS, type LaunchAnswer, type LaunchTargets } from '../../contract/growth'
import { figureKey } from '../../server/growth/public-figures'
import { content } from '../../web/content'
import { englishVisitorContent as visitorContent } from '../../web/visitor/content'
import { confirmOnPage, joinWithLink } from '../support/page-links'
import { seedSignUps } from '../support/seed'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { profileOf } from '../support/profile'
import { useSecretWhere } from '../support/public-figures'

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

  it.skipIf(!available)(
    'answers each country where a figure shows, its counts as public figures, for at most a minute; the team sees them exact',
    async () => {
      await start()
      // Offsets that put DE's 12 owners under 10 and IE's 31 owners at their target of 30.
      await useSecretWhere(server, {
        [figureKey.country('DE', 'breeders')]: (o) => o <= 5,
        [figureKey.country('DE', 'owners')]: (o) => o >= 3,
        [figureKey.country('IE', 'breeders')]: (o) => o <= 4,
        [figureKey.country('IE', 'owners')]: (o) => o <= 1,
        [figureKey.country('LU', 'breeders')]: (o) => o === 0,
      })
      await putTargets({ default: { breeders: 20, owners: 20 }, countries: { IE: { breeders: 10, owners: 30 } } })
      await seedCountry('de', 'DE', 25, 12, 5) // 25 breeders: 20+; 12 owners less at least 3: not shown
      await seedCountry('ie', 'IE', 14, 31) // 10+ and 20+, and ready: both less their offsets meet the targets
      await seedCountry('lu', 'LU', 9, 9) // 18 confirmed, but no figure reaches 10: never listed
      const answer = await fetch(`${server.url}/api/launch`)
      expect(answer.status).toBe(200)
      expect(answer.headers.get('access-control-allow-origin')).toBe('*')
      const maxAge = Number(/^public, max-age=(\d+)$/.exec(answer.headers.get('cache-control') ?? '')?.[1])
      expect(maxAge).toBeGreaterThan(50)
      expect(maxAge).toBeLessThanOrEqual(60)
      expect(((await answer.json()) as LaunchAnswer).countries).toEqual([
        { country: 'IE', breeders: 10, owners: 20, target: { breeders: 10, owners: 30 }, ready: true },
        { country: 'DE', breeders: 20, owners: null, target: { breeders: 20, owners: 20 }, ready: false },
      ])
      // Setting the targets counts again at once; otherwise the answer is the minute's. Ready where
      // both figures show at their targets: DE's owners do not show.
      await putTargets({ default: { breeders: 9, owners: 9 }, countries: {} })
      const again = (await (await fetch(`${server.url}/api/launch`)).json()) as LaunchAnswer
      expect(again.countries.map((c) => [c.country, c.ready])).toEqual([
        ['IE', true],
        ['DE', false],
      ])
      // The team sees every country, exact, the ready ones first.
      const segments = (await (await admin('/segments')).json()) as { meters: CountryMeter[] }
      expect(segments.meters.map((m) => [m.country, m.breeders, m.owners, m.ready])).toEqual([
        ['DE', 25, 12, true],
        ['IE', 14, 31, true],
        ['LU', 9, 9, true],
      ])
    },
  )

  it.skipIf(!available)(
    "shows the visitor their country's meter as the public sees it, counted now: their confirmation, an unsubscribe, a deletion",
    async () => {
      await start()
      const small = (o: number) => o <= 10
      const offsets = await useSecretWhere(server, {
        [figureKey.country('DE', 'breeders')]: small,
        [figureKey.country('DE', 'owners')]: small,
      })
      await putTargets({ default: { breeders: 80, owners: 400 }, countries: {} })
      // At two edges: 20 breeders and 99 owners once their offsets are taken off.
      const breeders = 20 + offsets(figureKey.country('DE', 'breeders'))
      const seeded = await seedCountry('ger', 'DE', breeders, 99 + offsets(figureKey.country('DE', 'owners')))
      const { token, id } = await joinWithLink(server, 'visitor@example.com')
      const page = async () => (await fetch(`${server.url}/me/${token}`)).text()
      expect(await page()).toContain(visitorContent.launch.askCountry)
      await server.app.store.visitors.saveProfile(id, profileOf({ role: 'owner', breeds: [], country: 'DE' }))
      const meter = (shownBreeders: number | null, shownOwners: number | null) =>
        visitorContent.launch.meter('Germany', {
          country: 'DE',
          breeders: shownBreeders,
          owners: shownOwners,
          target: { breeders: 80, owners: 400 },
          ready: false,
        })
      expect(meter(20, 50)).toBe('Germany: 20+ of 80 breeders, 50+ of 400 owners')
      expect(meter(null, 100)).toBe('Germany: too few breeders to show a number yet (target: 80), 100+ of 400 owners')
      expect(await page()).toContain(meter(20, 50)) // not confirmed: not counted yet
      await confirmOnPage(server, token)
      expect(await page()).toContain(meter(20, 100)) // their own confirmation: the hundredth owner
      const [breeder] = await server.app.store.list({ limit: 1, search: seeded.confirmed[0] })
      await server.app.store.visitors.setSubscribed(breeder?.id ?? 0, false)
      expect(await page()).toContain(meter(10, 100))
      await server.app.store.remove(seeded.confirmed[1] ?? '')
      expect(await page()).toContain(meter(10, 100))
      // The bars say no more than the sentence: their widths are the public figures'.
      expect(await page()).toContain(`width:${Math.round((10 / 80) * 100)}%`)
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

  it.skipIf(!available)('says on the landing page how many wait from 100, rounded down to the hundred, after its offset', async () => {
    await start()
    const offset = (await useSecretWhere(server, { [figureKey.waiting]: (o) => o <= 10 }))(figureKey.waiting)
    const hero = async () => {
      const html = await (await fetch(`${server.url}/`)).text()
      return { note: html.includes(content.hero.note), waiting: /(\d[\d,]*) breeders and dog owners are waiting/.exec(html)?.[1] ?? null }
    }
    await seedSignUps(storeEnv(), { confirmed: 98 + offset, unsubscribed: 30, unconfirmed: 30, prefix: 'many' })
    const last = await joinWithLink(server, 'ninety-nine@example.com')
    await confirmOnPage(server, last.token)
    expect(await hero()).toEqual({ note: true, waiting: null }) // 99 less the offset (the unsubscribed are not waiting)
    const hundredth = await joinWithLink(server, 'hundred@example.com')
    await confirmOnPage(server, hundredth.token)
    expect(await hero()).toEqual({ note: false, waiting: '100' })
    await seedSignUps(storeEnv(), { confirmed: 1149, prefix: 'more' })
    server.app.waiting.changed() // as a confirmation here would; another instance's show within 15 s
    expect(await hero()).toEqual({ note: false, waiting: '1,200' }) // 1,249 less the offset
  })
})
