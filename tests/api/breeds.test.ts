// Breeds by the catalogue (docs/breeds.md), over HTTP on both stores: names typed in six languages
// landing on one breed through the visitor's form, the breeder's questions checked field by field,
// the names the catalogue missed and an editor's mapping of them, the breed × country meters and
// their targets, /api/launch's breeds (public figures, docs/public-figures.md), segments by breed,
// side and readiness, and the migration of earlier free-text breeds.
import { afterEach, describe, expect, it } from 'vitest'
import type { BreedMetersAnswer, BreedTargets, UnmatchedAnswer } from '../../contract/breed-meters'
import type { Segments } from '../../contract/campaigns'
import type { Funnel, LaunchAnswer } from '../../contract/growth'
import type { Partner, PartnerDetail } from '../../contract/partners'
import { confirmOnPage, joinWithLink } from '../support/page-links'
import { earlierDatabase } from '../support/earlier-schema'
import { profileOf, type TestProfile } from '../support/profile'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { asOperator, joinTeam, runSql, sameSql } from '../support/team'
import { figureKey } from '../../server/growth/public-figures'
import { useSecretWhere } from '../support/public-figures'

const ADMIN_TOKEN = 'admin-token-for-the-breed-tests-0123456'

describe.each(STORES)('breeds on $kind', ({ kind, available }) => {
  let server: TestServer
  afterEach(() => server?.close())
  const start = async () => {
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' }, kind)
    return server
  }
  const admin = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server.url}/admin/api${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
  const form = (token: string, body: string) =>
    fetch(`${server.url}/me/${token}/profile`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      redirect: 'manual',
    })
  const breedsAnswer = async (query = '') => {
    server.app.breedMeters.changed() // counted now, not a minute ago
    const answer = await admin(`/breeds${query}`)
    expect(answer.status).toBe(200)
    return (await answer.json()) as BreedMetersAnswer
  }
  /** Confirmed sign-ups with these profiles, written through the store. */
  async function seed(prefix: string, profiles: TestProfile[], confirmed = true) {
    const ids: number[] = []
    for (const [i, profile] of profiles.entries()) {
      await server.app.store.add(row(`${prefix}-${i}@example.com`))
      const [listed] = await server.app.store.list({ limit: 1, search: `${prefix}-${i}@` })
      const id = listed?.id ?? 0
      if (confirmed) await server.app.store.visitors.confirm(id)
      await server.app.store.visitors.saveProfile(id, profileOf(profile))
      ids.push(id)
    }
    return ids
  }
  const many = (n: number, profile: TestProfile) => Array.from({ length: n }, () => profile)

  it.skipIf(!available)(
    'lands names typed in six languages on one breed, with the breeder’s answers, and counts it per country',
    async () => {
      await start()
      const typed: [string, string, string][] = [
        ['Deutscher Schäferhund', 'DE', 'stud'],
        ['Berger Allemand', 'FR', 'dam'],
        ['pastor alemán', 'ES', 'both'],
        ['Pastore Tedesco', 'IT', 'dam'],
        ['Owczarek niemiecki', 'PL', 'seeker'],
        ['GSD', 'GB', 'stud'],
      ]
      for (const [i, [name, country, side]] of typed.entries()) {
        const { token } = await joinWithLink(server, `gsd-${i}@example.com`)
        await confirmOnPage(server, token)
        const body = new URLSearchParams({
          role: 'breeder',
          'breed-1': name,
          'side-1': side,
          country,
          club: 'other',
          litters: '1',
          'other-tests-1': 'DM (SOD1)',
        })
        body.append('tests-1', 'hips')
        body.append('tests-1', 'elbows')
        expect((await form(token, body.toString())).status).toBe(303)
      }
      const stored = await runSql(server, sameSql('SELECT name, breed, side FROM signup_breeds ORDER BY signup_id'))
      expect(stored.map((r) => r.breed)).toEqual(Array(6).fill('german-shepherd-dog'))
      expect(stored.map((r) => r.name)).toEqual(typed.map(([name]) => name))
      const { breeds } = await breedsAnswer()
      expect(breeds).toHaveLength(1)
      const [gsd] = breeds
      expect(gsd).toMatchObject({
        id: 'german-shepherd-dog',
        name: 'German Shepherd Dog',
        target: { studs: 20, dams: 20 },
        // `both` counts on each side; the seeker on neither.
        all: { studs: 3, dams: 3, seekers: 1, profiles: 6, ready: false },
      })
      expect(gsd?.countries.find((c) => c.country === 'ES')).toEqual({
        country: 'ES',
        studs: 1,
        dams: 1,
        seekers: 0,
        profiles: 1,
        ready: false,
      })
      expect(gsd?.countries.find((c) => c.country === 'PL')).toMatchObject({ studs: 0, dams: 0, seekers: 1 })
      // Filters: one country; one side.
      expect((await breedsAnswer('?country=fr')).breeds[0]?.countries.map((c) => c.country)).toEqual(['FR'])
      expect((await breedsAnswer('?side=seeker')).breeds[0]?.countries.map((c) => c.country)).toEqual(['PL'])
      expect((await admin('/breeds?breed=no-such-breed')).status).toBe(400)
      expect((await admin('/breeds?side=king')).status).toBe(400)
    },
  )

  it.skipIf(!available)(
    'refuses answers the form cannot send with a 400 and keeps what was stored; the download and the deletion cover the breeds',
    async () => {
      await start()
      const { token, id } = await joinWithLink(server, 'ada@example.com')
      const good = 'role=breeder&breed-1=Labrador&side-1=dam&tests-1=hips&tests-1=dna&other-tests-1=EIC&club=SCC&litters=3&country=FR'
      expect((await form(token, good)).status).toBe(303)
      const kept = (await server.app.store.visitors.data(id)).profile
      expect(kept).toEqual({
        role: 'breeder',
        breeds: [{ name: 'Labrador', breed: 'labrador-retriever', side: 'dam', tests: ['hips', 'dna'], otherTests: 'EIC' }],
        country: 'FR',
        club: 'SCC',
        litters: 3,
      })
      for (const bad of [
        'breed-1=Pug&side-1=king',
        'breed-1=Pug&tests-1=xray',
        'club=FCI',
        'litters=4',
        'litters=two',
        'breed-6=Pug',
        `breed-1=Pug&other-tests-1=${'x'.repeat(121)}`,
        'breed-1=Pug&other-tests-1=a%00b',
      ]) {
        const answer = await form(token, bad)
        expect(answer.status, bad).toBe(400)
        expect(await answer.text()).toContain('could not be saved')
      }
      expect((await server.app.store.visitors.data(id)).profile).toEqual(kept)
      // Their own download has all of it.
      const download = (await (await fetch(`${server.url}/me/${token}/data.json`)).json()) as { profile: unknown }
      expect(download.profile).toEqual(kept)
      // One name given twice (as matching reads it) is one breed; empty rows are "not said".
      expect((await form(token, 'breed-1=labrador&breed-2=LABRADOR&breed-3=&side-3=stud&club=&litters=')).status).toBe(303)
      expect((await server.app.store.visitors.data(id)).profile).toMatchObject({
        breeds: [{ name: 'labrador' }],
        club: null,
        litters: null,
      })
      expect(
        await fetch(`${server.url}/me/${token}/delete`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'confirm=yes',
          redirect: 'manual',
        }).then((r) => r.status),
      ).toBe(303)
      expect(await runSql(server, sameSql('SELECT count(*) AS n FROM signup_breeds'))).toEqual([{ n: kind === 'postgres' ? '0' : 0 }])
    },
  )

  it.skipIf(!available)(
    'lists the names the catalogue missed, and an editor maps one for every sign-up that typed it, then and later',
    async () => {
      await start()
      await seed('cross', [
        { role: 'breeder', breeds: [{ name: 'Lab cross', side: 'dam' }], country: 'FR' },
        { role: 'owner', breeds: ['lab  CROSS', 'Pug'], country: 'FR' },
        { role: 'owner', breeds: ['Fluffy mystery'], country: 'DE' },
      ])
      const unmatched = (await (await admin('/breeds/unmatched')).json()) as UnmatchedAnswer
      expect(unmatched.unmatched).toHaveLength(2)
      expect(unmatched.unmatched[0]).toMatchObject({ count: 2 })
      expect(unmatched.unmatched[0]?.name.toLowerCase().replace(/\s+/g, ' ')).toBe('lab cross')
      expect(unmatched.unmatched[1]).toEqual({ name: 'Fluffy mystery', count: 1 })

      const editor = await joinTeam(server, 'editor@kennect.example', 'editor')
      const asEditor = (body: unknown) => asOperator(server, editor)('/breeds/unmatched', { method: 'POST', body })
      expect((await asEditor({ name: 'Lab cross', breed: 'no-such-breed' })).status).toBe(400)
      expect((await asEditor({ name: 'Labrador', breed: 'pug' })).status).toBe(409) // the catalogue knows it
      expect((await asEditor({ name: '!!!', breed: 'pug' })).status).toBe(400)
      expect((await asEditor({ name: 'Lab cross' })).status).toBe(400)
      const mapped = await asEditor({ name: 'LAB CROSS', breed: 'labrador-retriever' })
      expect(mapped.status).toBe(200)
      expect(await mapped.json()).toEqual({ name: 'LAB CROSS', breed: 'labrador-retriever', mapped: 2 })
      expect(((await (await admin('/breeds/unmatched')).json()) as UnmatchedAnswer).unmatched).toEqual([
        { name: 'Fluffy mystery', count: 1 },
      ])
      const [labrador] = (await breedsAnswer('?breed=labrador-retriever')).breeds
      expect(labrador?.all).toMatchObject({ dams: 1, profiles: 2 })
      // A later sign-up typing it lands on the breed too.
      await seed('later', [{ role: 'breeder', breeds: [{ name: 'Lab-Cross', side: 'stud' }], country: 'FR' }])
      expect((await breedsAnswer('?breed=labrador-retriever')).breeds[0]?.all).toMatchObject({ studs: 1, dams: 1, profiles: 3 })
      // In the audit log, by whom.
      const audit = (await (await admin('/audit')).json()) as {
        items: { action: string; actor: string; target: string | null; detail: unknown }[]
      }
      expect(audit.items.find((item) => item.action === 'breed mapped')).toMatchObject({
        actor: 'editor@kennect.example',
        target: 'labrador-retriever',
        detail: { name: 'LAB CROSS', signups: 2 },
      })
      // The breed by its name in any of the catalogue's languages, as the admin's field sends it; a
      // name the catalogue does not read is refused, naming the field.
      const unread = await asEditor({ name: 'Fluffy mystery', breed: 'Owczarek niemiecki x' })
      expect(unread.status).toBe(400)
      expect(((await unread.json()) as { message: string }).message).toMatch(/^breed: not a breed of the catalogue/)
      const byName = async (breed: string) => (await asEditor({ name: 'Fluffy mystery', breed })).json()
      expect(await byName('Deutscher Schäferhund')).toEqual({ name: 'Fluffy mystery', breed: 'german-shepherd-dog', mapped: 1 })
      // Mapped again by the breed's Polish name: the same breed, so no row moves.
      expect(await byName('Owczarek niemiecki')).toEqual({ name: 'Fluffy mystery', breed: 'german-shepherd-dog', mapped: 0 })
    },
  )

  it.skipIf(!available)(
    'sets breed targets, checked field by field, and says where a breed is ready; all countries pooled for rare breeds',
    async () => {
      await start()
      expect(await (await admin('/breeds/targets')).json()).toEqual({ default: { studs: 20, dams: 20 }, breeds: {} })
      for (const bad of [
        { default: { studs: -1, dams: 2 } },
        { default: { studs: 1, dams: 2 }, breeds: { 'no-such-breed': { studs: 1, dams: 1 } } },
        { default: { studs: 1, dams: 2 }, breeds: { pug: { studs: 1 } } },
        { default: { studs: 1, dams: 2 }, extra: 1 },
        [],
      ]) {
        const answer = await admin('/breeds/targets', { method: 'PUT', body: bad })
        expect(answer.status, JSON.stringify(bad)).toBe(400)
      }
      expect(await (await admin('/breeds/targets')).json()).toEqual({ default: { studs: 20, dams: 20 }, breeds: {} })
      const [firstPug] = await seed('pug', [
        ...many(2, { role: 'breeder', breeds: [{ name: 'Pug', side: 'both' }], country: 'FR' }),
        { role: 'breeder', breeds: [{ name: 'Pug', side: 'stud' }], country: 'DE' },
        { role: 'breeder', breeds: [{ name: 'Otterhound', side: 'stud' }], country: 'GB' },
        { role: 'breeder', breeds: [{ name: 'Otterhound', side: 'dam' }], country: 'IE' },
      ])
      // Unconfirmed and unsubscribed profiles do not count.
      const [unconfirmed] = await seed(
        'pug-unconfirmed',
        [{ role: 'breeder', breeds: [{ name: 'Pug', side: 'both' }], country: 'DE' }],
        false,
      )
      const [gone] = await seed('pug-gone', [{ role: 'breeder', breeds: [{ name: 'Pug', side: 'dam' }], country: 'DE' }])
      await server.app.store.visitors.setSubscribed(gone ?? 0, false)
      const targets: BreedTargets = { default: { studs: 2, dams: 2 }, breeds: { otterhound: { studs: 1, dams: 1 } } }
      const put = await admin('/breeds/targets', { method: 'PUT', body: targets })
      expect(put.status).toBe(200)
      expect(await (await admin('/breeds/targets')).json()).toEqual(targets)
      const { breeds } = await breedsAnswer()
      const pug = breeds.find((b) => b.id === 'pug')
      expect(pug?.countries).toEqual([
        { country: 'FR', studs: 2, dams: 2, seekers: 0, profiles: 2, ready: true },
        { country: 'DE', studs: 1, dams: 0, seekers: 0, profiles: 1, ready: false },
      ])
      const otterhound = breeds.find((b) => b.id === 'otterhound')
      expect(otterhound?.target).toEqual({ studs: 1, dams: 1 })
      expect(otterhound?.countries.every((c) => !c.ready)).toBe(true)
      expect(otterhound?.all).toEqual({ studs: 1, dams: 1, seekers: 0, profiles: 2, ready: true })
      // The readiest first.
      expect(breeds[0]?.id).toBe('pug')
      // The CSV has a line per country and one for all.
      const csv = await admin('/breeds.csv?breed=pug')
      expect(csv.headers.get('content-type')).toContain('text/csv')
      const lines = (await csv.text()).trim().split('\r\n')
      expect(lines[0]).toBe('breed,name,country,studs,dams,seekers,profiles,target_studs,target_dams,ready')
      expect(lines.slice(1)).toEqual([
        '"pug","Pug","FR","2","2","0","2","2","2","yes"',
        '"pug","Pug","DE","1","0","0","1","2","2","no"',
        '"pug","Pug","all","3","2","0","3","2","2","yes"',
      ])
      // The counts follow a confirmation after the profile, and a deletion.
      await server.app.store.visitors.confirm(unconfirmed ?? 0)
      await server.app.store.visitors.remove(firstPug ?? 0)
      expect((await breedsAnswer('?breed=pug')).breeds[0]?.countries).toEqual([
        { country: 'DE', studs: 2, dams: 1, seekers: 0, profiles: 2, ready: false },
        { country: 'FR', studs: 1, dams: 1, seekers: 0, profiles: 1, ready: false },
      ])
    },
  )

  it.skipIf(!available)('counts a person once per breed however many spellings they type, and moves a corrected mapping', async () => {
    await start()
    // Three spellings of one breed (English, its short name, German) and a name mapped later to it.
    const [ada] = await seed('twice', [
      {
        role: 'breeder',
        breeds: [{ name: 'Labrador Retriever', side: 'dam' }, 'Lab', 'Labrador-Retriever', 'Our Lab cross'],
        country: 'FR',
      },
    ])
    // Each row keeps the breed its name means: the person is counted once all the same.
    const stored = await runSql(server, sameSql('SELECT name, breed FROM signup_breeds WHERE signup_id = ? ORDER BY position'), [ada])
    expect(stored.map((r) => [r.name, r.breed])).toEqual([
      ['Labrador Retriever', 'labrador-retriever'],
      ['Lab', 'labrador-retriever'],
      ['Labrador-Retriever', 'labrador-retriever'],
      ['Our Lab cross', null],
    ])
    expect((await breedsAnswer()).breeds.map((b) => [b.id, b.all.profiles, b.all.dams])).toEqual([['labrador-retriever', 1, 1]])
    // An editor maps "Our Lab cross" to the pug by mistake, then corrects it: the profiles move, and
    // Ada still counts once for the Labrador (she names it already).
    await seed('cross', [{ role: 'owner', breeds: [{ name: 'our lab CROSS', side: 'seeker' }], country: 'FR' }])
    const map = (breed: string) => admin('/breeds/unmatched', { method: 'POST', body: { name: 'Our Lab cross', breed } })
    expect(await (await map('pug')).json()).toMatchObject({ mapped: 2 })
    expect((await breedsAnswer('?breed=pug')).breeds[0]?.all).toMatchObject({ profiles: 2, seekers: 1 })
    expect(await (await map('labrador-retriever')).json()).toMatchObject({ mapped: 2 })
    expect((await breedsAnswer('?breed=pug')).breeds).toEqual([])
    expect((await breedsAnswer('?breed=labrador-retriever')).breeds[0]?.all).toMatchObject({ profiles: 2, dams: 1, seekers: 1 })
  })

  it.skipIf(!available)(
    'shows the public a breed × country where one of its figures shows, each as its band after its offset',
    async () => {
      await start()
      const lab = (country: string, side: 'studs' | 'dams' | 'seekers') => figureKey.breed('labrador-retriever', country, side)
      // FR's 10 dams show (offset 0); DE's 12 (both) do not (offset 3 or more): nine under 10 never would.
      await useSecretWhere(server, {
        [lab('FR', 'dams')]: (o) => o === 0,
        [lab('FR', 'studs')]: (o) => o === 0,
        [lab('DE', 'studs')]: (o) => o >= 3,
        [lab('DE', 'dams')]: (o) => o >= 3,
      })
      await seed('lab-fr', [
        ...many(10, { role: 'breeder', breeds: [{ name: 'Labrador Retriever', side: 'dam' }], country: 'FR' }),
        ...many(2, { role: 'breeder', breeds: [{ name: 'Labrador Retriever', side: 'stud' }], country: 'FR' }),
      ])
      await seed('lab-de', many(12, { role: 'breeder', breeds: [{ name: 'Labrador', side: 'both' }], country: 'DE' }))
      await seed('pug-it', many(9, { role: 'breeder', breeds: [{ name: 'Pug', side: 'both' }], country: 'IT' }))
      server.app.breedMeters.changed()
      server.app.launch.changed()
      const answer = (await (await fetch(`${server.url}/api/launch`)).json()) as LaunchAnswer
      expect(answer.breeds).toEqual([{ id: 'labrador-retriever', country: 'FR', studs: null, dams: 10, seekers: null }])
      // The team sees them exact.
      const labrador = (await breedsAnswer('?breed=labrador-retriever')).breeds[0]
      expect(labrador?.countries.map((c) => [c.country, c.studs, c.dams])).toEqual([
        ['DE', 12, 12],
        ['FR', 2, 10],
      ])
      // The visitor's page says the same in their language, a figure not shown as "too few".
      const { token } = await joinWithLink(server, 'zoe@example.com')
      await confirmOnPage(server, token)
      expect((await form(token, 'breed-1=Labrador&side-1=stud&country=FR')).status).toBe(303)
      await fetch(`${server.url}/me/${token}/language`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'locale=fr',
      })
      const page = await (await fetch(`${server.url}/me/${token}`)).text()
      expect(page).toContain(
        'Retriever du labrador : encore trop peu d’éleveurs avec un étalon pour afficher un nombre, au moins 10 éleveurs avec une lice.',
      )
      // Read at each load, by the visitor's own breeds (not the minute-old count of every breed):
      // seven more studs in France make ten, and the next load says so, no cache cleared.
      await seed('lab-fr-studs', many(7, { role: 'breeder', breeds: [{ name: 'Labrador Retriever', side: 'stud' }], country: 'FR' }))
      expect(await (await fetch(`${server.url}/me/${token}`)).text()).toContain(
        'Retriever du labrador : au moins 10 éleveurs avec un étalon, au moins 10 éleveurs avec une lice.',
      )
    },
  )

  it.skipIf(!available)(
    'names each breed in the operator’s language: the meters and their CSV, the demand map, a partner and its sign-ups; a token’s in English',
    async () => {
      await start()
      const partner = (await (
        await admin('/partners', {
          method: 'POST',
          body: { name: 'Klub Owczarka', origins: ['https://klub.example'], breed: 'German Shepherd Dog', country: 'PL' },
        })
      ).json()) as Partner
      // Two sign-ups through the partner's form, their breeds named in German and English.
      const profiles: TestProfile[] = [
        { role: 'breeder', breeds: [{ name: 'Deutscher Schäferhund', side: 'stud' }], country: 'PL' },
        { role: 'owner', breeds: [{ name: 'Pug', side: 'seeker' }], country: 'PL' },
      ]
      for (const [i, profile] of profiles.entries()) {
        await server.app.store.add(row(`named-${i}@example.com`, { partner: partner.id }))
        const [listed] = await server.app.store.list({ limit: 1, search: `named-${i}@` })
        await server.app.store.visitors.confirm(listed?.id ?? 0)
        await server.app.store.visitors.saveProfile(listed?.id ?? 0, profileOf(profile))
      }
      const names = (answer: { id: string | null; name: string }[]) => answer.map((b) => [b.id, b.name]).sort()
      const inPolish = [
        ['german-shepherd-dog', 'Owczarek niemiecki'],
        ['pug', 'Mops'],
      ]
      const wanda = await joinTeam(server, 'wanda@kennect.example', 'owner')
      const polish = asOperator(server, wanda)
      expect((await polish('/me', { method: 'PATCH', body: { locale: 'pl' } })).status).toBe(200)
      server.app.breedMeters.changed()
      expect(names(((await (await polish('/breeds')).json()) as BreedMetersAnswer).breeds)).toEqual(inPolish)
      // The CSV as the view shows it: the id for scripts, the name as the operator reads it.
      const csv = await (await polish('/breeds.csv')).text()
      expect(csv).toContain('\r\n"german-shepherd-dog","Owczarek niemiecki","PL","1","0","0","1",')
      expect(csv).toContain('\r\n"pug","Mops","PL","0","0","1","1",')
      const segments = (await (await polish('/segments')).json()) as Segments
      expect(names(segments.topBreeds.map((b) => ({ id: b.id, name: b.breed })))).toEqual(inPolish)
      const [listed] = ((await (await polish('/partners')).json()) as Partner[]).filter((p) => p.id === partner.id)
      expect(listed).toMatchObject({ breed: 'german-shepherd-dog', breedName: 'Owczarek niemiecki' })
      const detail = (await (await polish(`/partners/${partner.id}`)).json()) as PartnerDetail
      expect(detail.breedName).toBe('Owczarek niemiecki')
      expect(names(detail.breeds)).toEqual(inPolish)
      // The same answers to a token (scripts), or an operator in English, name them in English.
      expect(names((await breedsAnswer()).breeds)).toEqual([
        ['german-shepherd-dog', 'German Shepherd Dog'],
        ['pug', 'Pug'],
      ])
      expect(partner.breedName).toBe('German Shepherd Dog')
      expect(((await (await admin('/segments')).json()) as Segments).topBreeds.map((b) => b.breed).sort()).toEqual([
        'German Shepherd Dog',
        'Pug',
      ])
    },
  )

  it.skipIf(!available)('filters the demand map and the funnel by breed; views stay everyone’s', async () => {
    await start()
    await seed('map-pug', many(3, { role: 'breeder', breeds: [{ name: 'Pug', side: 'dam' }], country: 'FR' }))
    await seed('map-lab', many(2, { role: 'owner', breeds: [{ name: 'Labrador', side: 'seeker' }], country: 'DE' }))
    await seed('map-none', [{ role: 'owner', breeds: [], country: 'DE' }], false)
    const segments = async (query: string) => {
      const answer = await admin(`/segments${query}`)
      expect(answer.status, query).toBe(200)
      return (await answer.json()) as Segments
    }
    const all = await segments('')
    expect(all.total).toBe(6)
    const pugs = await segments('?breed=pug')
    expect({ total: pugs.total, confirmed: pugs.confirmed }).toEqual({ total: 3, confirmed: 3 })
    expect(pugs.byCountry.map((c) => [c.country, c.breeders, c.total])).toEqual([['FR', 3, 3]])
    expect(pugs.topBreeds.map((b) => [b.breed, b.total])).toEqual([['Pug', 3]])
    expect(pugs.byRoleCountry).toEqual([{ role: 'breeder', country: 'FR', confirmed: 3, unconfirmed: 0 }])
    // The launch meters are everyone's.
    expect(pugs.meters).toEqual(all.meters)
    expect((await admin('/segments?breed=no-such-breed')).status).toBe(400)
    const today = new Date().toISOString().slice(0, 10)
    await fetch(`${server.url}/`, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' } })
    const funnel = async (query: string) => {
      const answer = await admin(`/funnel?since=${today}&until=${today}${query}`)
      expect(answer.status, query).toBe(200)
      return ((await answer.json()) as Funnel).days[0]
    }
    const everyone = await funnel('')
    const labradors = await funnel('&breed=labrador-retriever')
    expect(everyone).toMatchObject({ signups: 6, confirmed: 5, profiled: 6 })
    expect(labradors).toMatchObject({ signups: 2, confirmed: 2, profiled: 2, views: everyone?.views, visitors: everyone?.visitors })
    expect((await admin(`/funnel?breed=nope`)).status).toBe(400)
  })

  it.skipIf(!available)('says a breed’s target on the visitor’s page with each number in its plural form', async () => {
    await start()
    const targets: BreedTargets = { default: { studs: 1, dams: 3 }, breeds: { pug: { studs: 22, dams: 5 } } }
    expect((await admin('/breeds/targets', { method: 'PUT', body: targets })).status).toBe(200)
    const pageText = async (email: string, locale: string, breed: string) => {
      const { token } = await joinWithLink(server, email, { locale })
      await confirmOnPage(server, token)
      expect(
        (await form(token, new URLSearchParams({ role: 'breeder', 'breed-1': breed, 'side-1': 'stud', country: 'FR' }).toString())).status,
      ).toBe(303)
      const html = await (await fetch(`${server.url}/me/${token}`)).text()
      return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
    }
    expect(await pageText('en@example.com', 'en', 'Labrador')).toContain('when 1 stud and 3 dams wait there')
    expect(await pageText('pl@example.com', 'pl', 'Labrador')).toContain('1 reproduktor i 3 suki')
    expect(await pageText('pl-pug@example.com', 'pl', 'Mops')).toContain('22 reproduktory i 5 suk')
  })

  it.skipIf(!available)('segments a campaign by breed (id or name), side and ready breeds', async () => {
    await start()
    await seed('seg', [
      { role: 'breeder', breeds: [{ name: 'Labrador', side: 'dam' }], country: 'FR' },
      { role: 'breeder', breeds: [{ name: 'Labrador', side: 'both' }], country: 'FR' },
      { role: 'owner', breeds: [{ name: 'Labrador', side: 'seeker' }], country: 'FR' },
      { role: 'breeder', breeds: [{ name: 'Pug', side: 'stud' }, 'Our cross'], country: 'DE' },
    ])
    const count = async (segment: unknown) => {
      const answer = await admin('/campaigns', { method: 'POST', body: { subject: 'Hi', markdown: 'Hi.', segment, send: false } })
      expect(answer.status, JSON.stringify(segment)).toBe(201)
      return ((await answer.json()) as { recipients: number }).recipients
    }
    expect(await count({ breeds: ['labrador-retriever'] })).toBe(3)
    expect(await count({ breeds: ['Labrador Retriever'] })).toBe(3) // a name, read by the catalogue
    expect(await count({ breeds: ['Retriever du Labrador'] })).toBe(3)
    expect(await count({ breeds: ['our CROSS'] })).toBe(1) // a name it does not know, as typed
    expect(await count({ breeds: ['labrador-retriever'], sides: ['dam'] })).toBe(2) // `both` is a dam too
    expect(await count({ sides: ['stud'] })).toBe(2)
    expect(await count({ sides: ['seeker'] })).toBe(1)
    expect(await count({ readyBreeds: true })).toBe(0)
    expect((await admin('/breeds/targets', { method: 'PUT', body: { default: { studs: 1, dams: 2 }, breeds: {} } })).status).toBe(200)
    // Labrador in France is ready (1 stud, 2 dams): its three people, the seeker among them.
    expect(await count({ readyBreeds: true })).toBe(3)
    expect(await count({ readyBreeds: true, sides: ['seeker'] })).toBe(1)
    const bad = await admin('/campaigns', {
      method: 'POST',
      body: { subject: 'Hi', markdown: 'Hi.', segment: { sides: ['king'] }, send: false },
    })
    expect(bad.status).toBe(400)
  })
})

describe.each(STORES)('the breeds migration on $kind', ({ kind, available }) => {
  it.skipIf(!available)('copies earlier free-text breeds into rows of their own, read by the catalogue at start', async () => {
    const rows = [
      ['old-1@example.com', ['Deutscher Schäferhund', 'Our own cross']],
      ['old-2@example.com', ['frenchie']],
    ] as const
    // The migrations before the breeds, with two free-text profiles.
    const { env, cleanup } = await earlierDatabase(kind, '010', async (query) => {
      for (const [email, breeds] of rows)
        if (kind === 'sqlite')
          await query('INSERT INTO waitlist (email, breeds, confirmed_at) VALUES (?, ?, ?)', [
            email,
            JSON.stringify(breeds),
            new Date().toISOString(),
          ])
        else await query('INSERT INTO waitlist (email, breeds, confirmed_at) VALUES ($1, $2, now())', [email, breeds])
    })
    const server = await startServer({ ...env, ADMIN_TOKEN }, kind)
    try {
      const stored = await runSql(server, sameSql('SELECT name, name_key, breed, position FROM signup_breeds ORDER BY signup_id, position'))
      expect(stored.map(({ name, breed, position }) => ({ name, breed, position: Number(position) }))).toEqual([
        { name: 'Deutscher Schäferhund', breed: 'german-shepherd-dog', position: 1 },
        { name: 'Our own cross', breed: null, position: 2 },
        { name: 'frenchie', breed: 'french-bulldog', position: 1 },
      ])
      expect(stored.every((r) => typeof r.name_key === 'string' && r.name_key !== '')).toBe(true)
      const unmatched = (await (
        await fetch(`${server.url}/admin/api/breeds/unmatched`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      ).json()) as UnmatchedAnswer
      expect(unmatched.unmatched).toEqual([{ name: 'Our own cross', count: 1 }])
      // The typed names stay where the export and the demand map read them.
      expect((await server.app.store.list({ limit: 10 })).map((s) => s.breeds).sort()).toEqual([
        ['Deutscher Schäferhund', 'Our own cross'],
        ['frenchie'],
      ])
    } finally {
      await server.close()
      await cleanup()
    }
  })
})
