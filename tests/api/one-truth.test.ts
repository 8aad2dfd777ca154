// One truth for each fact (issue 38, docs/decisions/021-tallies.md), over HTTP on both stores: a
// profile's breeds are its rows (two spellings of one breed with two sides make one breeder with
// both; a corrected mapping moves only the rows of the name it maps; names of every script are
// kept, listed and mapped), the most named breeds count a breed once, and the counts kept by
// triggers equal a fresh count of the rows after concurrent saves, unsubscribes and resubscribes
// that, on PostgreSQL, used to deadlock; and a bounce is the same bounce in the Mail view, in
// `mail status` and in Deliverability, however it came.
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { MailOverview } from '../../contract/admin-api'
import type { BreedMetersAnswer, UnmatchedAnswer } from '../../contract/breed-meters'
import type { Segments } from '../../contract/campaigns'
import type { Deliverability } from '../../contract/deliverability'
import { confirmOnPage, joinWithLink, pageTokenFor } from '../support/page-links'
import { outboxSettled } from '../support/outbox'
import { builtCli } from '../support/process'
import { dsnFor } from '../support/reports'
import { profileOf, type TestProfile } from '../support/profile'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { runSql, sameSql } from '../support/team'

const ADMIN_TOKEN = 'admin-token-for-the-one-truth-tests-0123'
const RETURN_PATH = 'bounces+{id}@kennect.test'
const POSTMARK = 'kennect:postmark-password-0123'

describe.each(STORES)('one truth on $kind', ({ kind, available }) => {
  let server: TestServer
  afterEach(() => server?.close())
  const start = async () => (server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' }, kind))
  const admin = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server.url}/admin/api${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
  const meters = async (query = '') => {
    server.app.breedMeters.changed() // counted now, not a minute ago
    const { breeds } = (await (await admin(`/breeds${query}`)).json()) as BreedMetersAnswer
    // The counts alone (readiness is the targets' business).
    return breeds.map(({ all, ...breed }) => ({
      ...breed,
      all: { profiles: all.profiles, studs: all.studs, dams: all.dams, seekers: all.seekers },
    }))
  }
  const unmatched = async () => ((await (await admin('/breeds/unmatched')).json()) as UnmatchedAnswer).unmatched
  const map = (name: string, breed: string) => admin('/breeds/unmatched', { method: 'POST', body: { name, breed } })
  const rowsOf = async (id: number) =>
    (await runSql(server, sameSql('SELECT name, breed, side FROM signup_breeds WHERE signup_id = ? ORDER BY position'), [id])).map((r) => [
      r.name,
      r.breed,
      r.side,
    ])
  async function seed(prefix: string, profiles: TestProfile[]) {
    const ids: number[] = []
    for (const [i, profile] of profiles.entries()) {
      await server.app.store.add(row(`${prefix}-${i}@example.com`))
      const [listed] = await server.app.store.list({ limit: 1, search: `${prefix}-${i}@` })
      const id = listed?.id ?? 0
      await server.app.store.visitors.confirm(id)
      await server.app.store.visitors.saveProfile(id, profileOf(profile))
      ids.push(id)
    }
    return ids
  }

  it.skipIf(!available)(
    'counts one breed named by two spellings with two sides as one breeder with both, and lists neither name as missed',
    async () => {
      await start()
      const [ada] = await seed('two', [
        {
          role: 'breeder',
          breeds: [
            { name: 'Deutscher Schäferhund', side: 'stud' },
            { name: 'GSD', side: 'dam' },
          ],
          country: 'DE',
        },
      ])
      expect(await rowsOf(ada ?? 0)).toEqual([
        ['Deutscher Schäferhund', 'german-shepherd-dog', 'stud'],
        ['GSD', 'german-shepherd-dog', 'dam'],
      ])
      expect((await meters()).map((m) => [m.id, m.all])).toEqual([['german-shepherd-dog', { profiles: 1, studs: 1, dams: 1, seekers: 0 }]])
      expect(await unmatched()).toEqual([])
      // The catalogue reads GSD itself: there is nothing to map.
      expect((await map('GSD', 'pug')).status).toBe(409)
      // The data download and the webhook payload read the same rows.
      const [signup] = await server.app.store.list({ limit: 1, search: 'two-0@' })
      expect(signup?.breeds).toEqual(['Deutscher Schäferhund', 'GSD'])
      // The most named breeds count the person once, under the catalogue's name.
      const segments = (await (await admin('/segments')).json()) as Segments
      expect(segments.topBreeds).toEqual([
        { id: 'german-shepherd-dog', breed: 'German Shepherd Dog', breeders: 1, owners: 0, others: 0, total: 1 },
      ])
    },
  )

  it.skipIf(!available)(
    'moves only the rows of the name a mapping maps, again when it is corrected, and lists the name no more',
    async () => {
      await start()
      const [ada] = await seed('map', [
        {
          role: 'breeder',
          breeds: [
            { name: 'Fluffy mystery', side: 'stud' },
            { name: 'Labrador Retriever', side: 'dam' },
          ],
          country: 'FR',
        },
      ])
      expect(await unmatched()).toEqual([{ name: 'Fluffy mystery', count: 1 }])
      expect(await (await map('Fluffy mystery', 'labrador-retriever')).json()).toMatchObject({ mapped: 1 })
      expect(await unmatched()).toEqual([])
      expect((await meters()).map((m) => [m.id, m.all])).toEqual([['labrador-retriever', { profiles: 1, studs: 1, dams: 1, seekers: 0 }]])
      // Corrected: the Fluffy row moves; the profile's own Labrador row stays the catalogue's.
      expect(await (await map('Fluffy mystery', 'german-shepherd-dog')).json()).toMatchObject({ mapped: 1 })
      expect(await rowsOf(ada ?? 0)).toEqual([
        ['Fluffy mystery', 'german-shepherd-dog', 'stud'],
        ['Labrador Retriever', 'labrador-retriever', 'dam'],
      ])
      expect(new Map((await meters()).map((m) => [m.id, m.all]))).toEqual(
        new Map([
          ['labrador-retriever', { profiles: 1, studs: 0, dams: 1, seekers: 0 }],
          ['german-shepherd-dog', { profiles: 1, studs: 1, dams: 0, seekers: 0 }],
        ]),
      )
      // A later sign-up typing the name lands on the mapping, and the list stays empty.
      await seed('later', [{ role: 'owner', breeds: [{ name: 'fluffy MYSTERY', side: 'seeker' }], country: 'FR' }])
      expect(await unmatched()).toEqual([])
    },
  )

  it.skipIf(!available)('keeps names in Cyrillic, Greek and Japanese apart, lists each, and maps each', async () => {
    await start()
    await seed('script', [
      {
        role: 'breeder',
        breeds: [
          { name: 'Немецкая овчарка', side: 'stud' },
          { name: '柴犬', side: 'dam' },
        ],
        country: 'PL',
      },
      {
        role: 'owner',
        breeds: [
          { name: 'Ελληνικός Ποιμενικός', side: 'seeker' },
          { name: 'НЕМЕЦКАЯ ОВЧАРКА', side: 'seeker' },
        ],
        country: 'PL',
      },
    ])
    // Listed by one of their spellings: the two Russian ones share a key.
    expect(new Map((await unmatched()).map((u) => [u.name.toLowerCase(), u.count]))).toEqual(
      new Map([
        ['немецкая овчарка', 2],
        ['柴犬', 1],
        ['ελληνικός ποιμενικός', 1],
      ]),
    )
    expect(await (await map('немецкая овчарка', 'german-shepherd-dog')).json()).toMatchObject({ mapped: 2 })
    expect(await (await map('柴犬', 'shiba')).json()).toMatchObject({ mapped: 1 })
    expect((await unmatched()).map((u) => u.name)).toEqual(['Ελληνικός Ποιμενικός'])
    expect(new Map((await meters()).map((m) => [m.id, m.all]))).toEqual(
      new Map([
        ['german-shepherd-dog', { profiles: 2, studs: 1, dams: 0, seekers: 1 }],
        ['shiba', { profiles: 1, studs: 0, dams: 1, seekers: 0 }],
      ]),
    )
  })

  it.skipIf(!available)(
    'keeps the counts equal to a fresh count of the rows through concurrent saves in opposite orders, unsubscribes and resubscribes',
    async () => {
      await start()
      const breeds = ['Labrador Retriever', 'Pug', 'Beagle', 'Whippet', 'Border Collie']
      const people: string[] = []
      for (const name of ['north', 'south']) {
        const link = await joinWithLink(server, `${name}@example.com`)
        await confirmOnPage(server, link.token)
        people.push(link.token)
      }
      const save = (token: string, order: string[], country: string) =>
        fetch(`${server.url}/me/${token}/profile`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: [
            'role=breeder',
            `country=${country}`,
            ...order.flatMap((name, i) => [`breed-${i + 1}=${encodeURIComponent(name)}`, `side-${i + 1}=both`]),
          ].join('&'),
          redirect: 'manual',
        })
      const subscribe = (token: string, on: boolean) =>
        fetch(`${server.url}/me/${token}/${on ? 'resubscribe' : 'unsubscribe'}`, { method: 'POST', redirect: 'manual' })
      // 300 rounds of both visitors saving the same breeds in opposite orders, then 300 rounds of
      // stopping and starting e-mails, each pair at once (on PostgreSQL these deadlocked).
      const answers: Response[] = []
      for (let i = 0; i < 300; i++) {
        const [a, b] = people as [string, string]
        const country = i % 2 === 0 ? 'DE' : 'FR'
        answers.push(...(await Promise.all([save(a, breeds, country), save(b, [...breeds].reverse(), country)])))
      }
      for (let i = 0; i < 300; i++) {
        const [a, b] = people as [string, string]
        answers.push(...(await Promise.all([subscribe(a, i % 2 === 1), subscribe(b, i % 2 === 1)])))
      }
      // Every form got its page back (a redirect to the page, never an error).
      expect(answers.map((a) => a.status).filter((status) => status !== 303)).toEqual([])
      const fresh = await runSql(
        server,
        sameSql(
          `SELECT breed, country, sum(studs) AS studs, sum(dams) AS dams, count(*) AS profiles FROM (
             SELECT signup_id, breed, country, max(CASE WHEN side IN ('stud', 'both') THEN 1 ELSE 0 END) AS studs,
               max(CASE WHEN side IN ('dam', 'both') THEN 1 ELSE 0 END) AS dams
             FROM signup_breeds WHERE breed IS NOT NULL AND counted GROUP BY signup_id, breed, country) AS per_person
           GROUP BY breed, country ORDER BY breed, country`,
        ),
      )
      const counted = (await meters()).flatMap((m) => m.countries.map((c) => [m.id, c.country, c.studs, c.dams, c.profiles]))
      expect(counted.sort()).toEqual(fresh.map((r) => [r.breed, r.country, Number(r.studs), Number(r.dams), Number(r.profiles)]).sort())
      // The last round left both subscribed (the counts hold them) in FR.
      expect(fresh).toHaveLength(5)
      expect(fresh.every((r) => r.country === 'FR' && Number(r.profiles) === 2)).toBe(true)
    },
    240_000,
  )
})

describe.each(STORES)('the counts of people on $kind', ({ kind, available }) => {
  let server: TestServer
  afterEach(() => server?.close())
  const admin = async <T>(path: string, init: { method?: string } = {}) =>
    (await (
      await fetch(`${server.url}/admin/api${path}`, { method: init.method ?? 'GET', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    ).json()) as T
  const day = { sqlite: 'substr(created_at, 1, 10)', postgres: "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')" }
  /** What the rows say now, counted afresh. */
  const fresh = async () => {
    const sql = (build: (dialect: 'sqlite' | 'postgres') => string) => ({ sqlite: build('sqlite'), postgres: build('postgres') })
    const days = await runSql(
      server,
      sql((d) => `SELECT ${day[d]} AS day, count(*) AS n FROM waitlist GROUP BY 1 ORDER BY 1`),
    )
    const sources = await runSql(server, sameSql('SELECT coalesce(utm_source, referrer) AS source, count(*) AS n FROM waitlist GROUP BY 1'))
    const totals = await runSql(
      server,
      sameSql('SELECT count(*) AS total, count(confirmed_at) AS confirmed, count(unsubscribed_at) AS unsubscribed FROM waitlist'),
    )
    const countries = await runSql(
      server,
      sameSql(
        "SELECT country, count(*) AS total, sum(CASE WHEN role = 'breeder' THEN 1 ELSE 0 END) AS breeders FROM waitlist WHERE unsubscribed_at IS NULL GROUP BY country",
      ),
    )
    const locales = await runSql(
      server,
      sameSql('SELECT locale, count(*) AS total FROM waitlist WHERE unsubscribed_at IS NULL GROUP BY locale'),
    )
    return {
      perDay: days.map((r) => ({ day: r.day, count: Number(r.n) })),
      perSource: sources
        .map((r) => ({ source: r.source, count: Number(r.n) }))
        .sort((a, b) => String(a.source).localeCompare(String(b.source))),
      totals: totals.map((r) => ({ total: Number(r.total), confirmed: Number(r.confirmed), unsubscribed: Number(r.unsubscribed) }))[0],
      countries: countries.map((r) => [r.country, Number(r.total), Number(r.breeders)]).sort(),
      locales: locales.map((r) => [r.locale, Number(r.total)]).sort(),
    }
  }
  /** What the API answers, from the tallies. */
  const counted = async () => {
    const stats = await admin<{
      total: number
      perDay: { day: string; count: number }[]
      perSource: { source: string | null; count: number }[]
    }>('/stats')
    const map = await admin<Segments>('/segments')
    return {
      perDay: stats.perDay,
      perSource: [...stats.perSource].sort((a, b) => String(a.source).localeCompare(String(b.source))),
      totals: { total: map.total, confirmed: map.confirmed, unsubscribed: map.unsubscribed },
      countries: map.byCountry.map((c) => [c.country, c.total, c.breeders]).sort(),
      locales: map.byLocale.map((l) => [l.locale, l.total]).sort(),
    }
  }

  it.skipIf(!available)(
    'keeps the counts of people, per day and per source equal to a fresh count of the rows through every change a sign-up goes through',
    async () => {
      server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' }, kind)
      const ada = await joinWithLink(server, 'ada@example.com', { utm_source: 'newsletter' })
      const bo = await joinWithLink(server, 'bo@example.com', { locale: 'de' })
      const cy = await joinWithLink(server, 'cy@example.com')
      await joinWithLink(server, 'dee@example.com', { utm_source: 'newsletter' })
      expect(await counted()).toEqual(await fresh())
      // Confirmed; a profile said (a role and a country), then changed; mail stopped and started again.
      await confirmOnPage(server, ada.token)
      await confirmOnPage(server, bo.token)
      const profile = (token: string, body: string) =>
        fetch(`${server.url}/me/${token}/profile`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
          redirect: 'manual',
        })
      expect((await profile(ada.token, 'role=breeder&country=FR')).status).toBe(303)
      expect((await profile(bo.token, 'role=owner&country=DE')).status).toBe(303)
      expect((await profile(ada.token, 'role=breeder&country=DE')).status).toBe(303)
      const mail = (token: string, on: boolean) =>
        fetch(`${server.url}/me/${token}/${on ? 'resubscribe' : 'unsubscribe'}`, { method: 'POST', redirect: 'manual' })
      expect((await mail(bo.token, false)).status).toBe(303)
      expect((await mail(cy.token, false)).status).toBe(303)
      expect(await counted()).toEqual(await fresh())
      expect((await mail(bo.token, true)).status).toBe(303)
      // A day and a source corrected by hand, and one address deleted.
      await runSql(server, sameSql("UPDATE waitlist SET created_at = ?, utm_source = 'fair' WHERE id = ?"), [
        '2026-01-02T10:00:00.000Z',
        cy.id,
      ])
      expect(
        (
          await fetch(`${server.url}/admin/api/signups?email=dee%40example.com`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          })
        ).status,
      ).toBeLessThan(300)
      const now = await fresh()
      expect(await counted()).toEqual(now)
      expect(now.totals).toEqual({ total: 3, confirmed: 2, unsubscribed: 1 })
      expect(now.perDay[0]).toEqual({ day: '2026-01-02', count: 1 })
    },
  )
})

describe.each(STORES)('one mail truth on $kind', ({ kind, available }) => {
  let server: TestServer
  afterEach(() => server?.close())
  const cli = (args: string[], input = '') =>
    new Promise<string>((resolve, reject) => {
      const env = kind === 'postgres' ? { DATABASE_URL: server.config.DATABASE_URL } : { SQLITE_PATH: server.config.SQLITE_PATH }
      const child = spawn(process.execPath, [builtCli(), ...args], {
        env: { PATH: process.env.PATH, ...env, MAIL_RETURN_PATH: RETURN_PATH },
      })
      let out = ''
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out}`))))
      child.stdin.end(input)
    })
  const admin = async <T>(path: string, init: { method?: string; body?: unknown; auth?: string } = {}): Promise<T> => {
    const answer = await fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: init.auth ?? `Bearer ${ADMIN_TOKEN}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
    expect(answer.status, path).toBe(200)
    return (await answer.json()) as T
  }
  /** The .eml the server wrote to an address. */
  const emlTo = async (email: string) => {
    await pageTokenFor(server.config.MAIL_DIR, email)
    const names = readdirSync(server.config.MAIL_DIR).filter((name) => name.endsWith('.eml'))
    const files = names.map((name) => readFileSync(join(server.config.MAIL_DIR, name), 'utf8'))
    const found = files.find((eml) => new RegExp(`^To: ${email}\\r?$`, 'im').test(eml))
    if (!found) throw new Error(`no mail to ${email}`)
    return found
  }

  it.skipIf(!available)(
    'says the same bounces in the Mail view, `mail status` and Deliverability, from a provider hook and from mail inbound',
    async () => {
      server = await startServer(
        {
          ADMIN_TOKEN,
          MAIL_RATE_PER_SECOND: '0',
          MAIL_RETURN_PATH: RETURN_PATH,
          MAIL_FROM: 'Kennect <hello@kennect.test>',
          POSTMARK_WEBHOOK_AUTH: POSTMARK,
        },
        kind,
      )
      for (const email of ['ada@example.com', 'bea@example.com', 'cem@example.com']) await server.app.store.add(row(email))
      // Every mail sent (its row marked so, not only its file written) before any report of it comes back.
      await outboxSettled(server.app.store)
      // Ada's mail bounces through Postmark's hook (tied by the metadata each mail carries)…
      const key = /^X-PM-Metadata-kennect-message: (\S+)\r?$/im.exec(await emlTo('ada@example.com'))?.[1]
      const bounce = {
        RecordType: 'Bounce',
        ID: 1,
        Type: 'HardBounce',
        TypeCode: 1,
        Email: 'ada@example.com',
        Metadata: { 'Kennect-Message': key },
      }
      expect(
        await admin('/hooks/mail/postmark', { method: 'POST', body: bounce, auth: `Basic ${Buffer.from(POSTMARK).toString('base64')}` }),
      ).toEqual({
        recorded: 1,
      })
      // …and Bea's comes back as a DSN to its VERP return path, piped to the command line.
      expect(await cli(['mail', 'inbound'], dsnFor(await emlTo('bea@example.com')))).toBe('hard-bounce: recorded, address suppressed\n')

      const mail = await admin<MailOverview>('/admin/api/mail')
      expect(mail.delivery).toEqual({ sent: 3, delivered: 1, hardBounced: 2, softBounced: 0, complained: 0, unsubscribed: 0 })
      expect(mail.queue).toEqual({ queued: 0, sending: 0, failed: 0 })
      const status = await cli(['mail', 'status'])
      expect(status).toMatch(/^sent +3$/m)
      expect(status).toMatch(/^delivered +1$/m)
      expect(status).toMatch(/^hard bounces +2$/m)
      const deliverability = await admin<Deliverability>('/admin/api/deliverability')
      const [domain] = deliverability.domains
      const figures = Object.keys(mail.delivery) as (keyof MailOverview['delivery'])[]
      expect(domain && Object.fromEntries(figures.map((figure) => [figure, domain[figure]]))).toEqual(mail.delivery)
    },
  )
})
