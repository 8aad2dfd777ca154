// One segment counted alike wherever it is asked (contract/segment.ts; issue 49, items 6 and 7), on
// both stores: the admin API's draft (POST /admin/api/campaigns with send: false, its recipients),
// the command line's dry run (campaign create … --dry-run), and on PostgreSQL a second server on the
// same database. Who the app has taken already (claimed: yes, no, either), and a breed's name that
// only an editor's mapping reads, which then selects that breed whoever typed what.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Segment } from '../../contract/campaigns'
import { claimInApp } from '../support/app'
import { createTestSchema, type TestDatabase } from '../support/postgres'
import { runCli } from '../support/process'
import { profileOf, type TestProfile } from '../support/profile'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'

const TOKEN = 'segment-counts-admin-token-0123456789'
const RUSSIAN = 'Немецкая овчарка'

/** Who signed up, all confirmed but the last; `app`: the app has taken their profile. */
const PEOPLE: { email: string; profile?: TestProfile; app?: boolean; confirmed?: false }[] = [
  {
    email: 'gsd.stud.de@example.com',
    profile: { role: 'breeder', breeds: [{ name: 'German Shepherd Dog', side: 'stud' }], country: 'DE' },
    app: true,
  },
  {
    email: 'gsd.dam.de@example.com',
    profile: { role: 'breeder', breeds: [{ name: 'Deutscher Schäferhund', side: 'dam' }], country: 'DE' },
  },
  { email: 'gsd.dam.pl@example.com', profile: { role: 'breeder', breeds: [{ name: RUSSIAN, side: 'dam' }], country: 'PL' } },
  { email: 'whippet.gb@example.com', profile: { role: 'owner', breeds: [{ name: 'Whippet', side: 'seeker' }], country: 'GB' }, app: true },
  { email: 'quiet@example.com' },
  {
    email: 'unconfirmed@example.com',
    profile: { role: 'breeder', breeds: [{ name: RUSSIAN, side: 'dam' }], country: 'PL' },
    confirmed: false,
  },
]

describe.each(STORES)('a segment counted on $kind', ({ kind, available }) => {
  /** The servers on the store's one database: two on PostgreSQL, which many instances share; one SQLite file has one. */
  let servers: TestServer[] = []
  let db: TestDatabase | undefined
  let cliEnv: Record<string, string>
  const dir = mkdtempSync(join(tmpdir(), 'kennect-segment-counts-'))
  const message = join(dir, 'wave.md')

  const admin = (server: TestServer, path: string, body?: unknown) =>
    fetch(`${server.url}/admin/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  const first = () => servers[0] as TestServer
  const last = () => servers.at(-1) as TestServer

  beforeAll(async () => {
    if (!available) return
    if (kind === 'postgres') {
      db = await createTestSchema()
      servers = [
        await startServer({ DATABASE_URL: db.url, ADMIN_TOKEN: TOKEN }, kind),
        await startServer({ DATABASE_URL: db.url, ADMIN_TOKEN: TOKEN }, kind),
      ]
      cliEnv = { DATABASE_URL: db.url }
    } else {
      servers = [await startServer({ ADMIN_TOKEN: TOKEN }, kind)]
      cliEnv = { SQLITE_PATH: first().config.SQLITE_PATH }
    }
    const { store } = first().app
    const ids = new Map<string, number>()
    for (const person of PEOPLE) {
      await store.add(row(person.email))
      const id = (await store.list({ limit: 1, search: person.email }))[0]?.id ?? 0
      ids.set(person.email, id)
      if (person.confirmed !== false) await store.visitors.confirm(id)
      if (person.profile) await store.visitors.saveProfile(id, profileOf(person.profile))
    }
    // The app takes two profiles, through the last server (the other one, on PostgreSQL).
    const made = await admin(first(), '/tokens', { name: 'the app', role: 'app' })
    expect(made.status, await made.clone().text()).toBe(201)
    const { token } = (await made.json()) as { token: string }
    await claimInApp(
      last(),
      token,
      PEOPLE.filter((person) => person.app).map((person) => ids.get(person.email) ?? 0),
    )
    writeFileSync(message, 'The app is here: {{my_page_url}}\n')
  })
  afterAll(async () => {
    for (const server of servers) await server.close()
    await db?.cleanup()
    rmSync(dir, { recursive: true, force: true })
  })

  /** The draft's count on each server. */
  async function apiCounts(segment: Segment): Promise<number[]> {
    const counts = []
    for (const server of servers) {
      const answer = await admin(server, '/campaigns', { subject: 'A wave', markdown: 'Hello.', segment, send: false })
      expect(answer.status, `${JSON.stringify(segment)}: ${await answer.clone().text()}`).toBe(201)
      counts.push(((await answer.json()) as { recipients: number }).recipients)
    }
    return counts
  }
  /** The command line's dry run's count. */
  async function cliCount(...flags: string[]): Promise<number> {
    const answer = await runCli(cliEnv, 'campaign', 'create', '--subject', 'A wave', '--markdown-file', message, ...flags, '--dry-run')
    expect(answer.code, `${flags.join(' ')}: ${answer.stderr}`).toBe(0)
    return Number(/dry run: (\d+) recipient/.exec(answer.stdout)?.[1])
  }
  /** Every count of one segment: each server's, then the command line's (a process each: the slow one, so kept to the cases that matter). */
  const counts = async (segment: Segment, ...flags: string[]) => [...(await apiCounts(segment)), await cliCount(...flags)]
  /** `n` as every server and the command line count it; `servers` alone with false. */
  const alike = (n: number, cli = true) => Array.from({ length: servers.length + (cli ? 1 : 0) }, () => n)

  it.skipIf(!available)(
    'counts those not in the app yet, those in it, and either, alike through the API and the command line',
    async () => {
      expect(await apiCounts({})).toEqual(alike(5, false))
      expect(await counts({ claimed: false }, '--claimed', 'no')).toEqual(alike(3))
      expect(await counts({ claimed: true }, '--claimed', 'yes')).toEqual(alike(2))
      // With the other fields: the German Shepherd Dog's people (by the catalogue) not in the app yet.
      expect(
        await counts({ breeds: ['german-shepherd-dog'], claimed: false }, '--breed', 'german-shepherd-dog', '--claimed', 'no'),
      ).toEqual(alike(1))
      // Saved as given: no is kept, either is left out.
      const saved = await admin(first(), '/campaigns', {
        subject: 'Reminder',
        markdown: 'Hello.',
        segment: { claimed: false },
        send: false,
      })
      const { id } = (await saved.json()) as { id: number }
      expect(((await (await admin(last(), `/campaigns/${id}/draft`)).json()) as { segment: Segment }).segment).toEqual({ claimed: false })

      // Sent, it goes to those the count counted: the send reads the segment as the count does.
      const sent = await admin(last(), '/campaigns', { subject: 'Reminder', markdown: 'Hello.', segment: { claimed: false }, send: true })
      expect(sent.status, await sent.clone().text()).toBe(201)
      expect(await sent.json()).toMatchObject({ recipients: 3 })

      const refused = await admin(first(), '/campaigns', { subject: 'S', markdown: 'x', segment: { claimed: 'no' }, send: false })
      expect(refused.status).toBe(400)
      expect(((await refused.json()) as { message: string }).message).toMatch(/segment\/claimed/)
      expect(
        await runCli(cliEnv, 'campaign', 'create', '--subject', 'S', '--markdown-file', message, '--claimed', 'maybe', '--dry-run'),
      ).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--claimed: expected yes or no, got "maybe"'),
      })
    },
  )

  it.skipIf(!available)('selects a breed by a name an editor mapped, through the API and the command line, on every server', async () => {
    // Before the mapping the name is matched as typed: the one confirmed person who typed it.
    expect(await counts({ breeds: [RUSSIAN] }, '--breed', RUSSIAN)).toEqual(alike(1))
    expect(await apiCounts({ breeds: ['german-shepherd-dog'] })).toEqual(alike(2, false))

    const mapped = await admin(first(), '/breeds/unmatched', { name: RUSSIAN, breed: 'german-shepherd-dog' })
    expect(mapped.status, await mapped.clone().text()).toBe(200)
    // The name selects the breed now, as its id and its names in the catalogue's languages do, on
    // every server (none keeps the mappings of its own), in any letter case and word order.
    expect(await counts({ breeds: [RUSSIAN] }, '--breed', RUSSIAN)).toEqual(alike(3))
    for (const name of ['овчарка НЕМЕЦКАЯ', 'german-shepherd-dog', 'Owczarek niemiecki'])
      expect(await apiCounts({ breeds: [name] }), name).toEqual(alike(3, false))
    expect(await counts({ breeds: [RUSSIAN], sides: ['dam'] }, '--breed', RUSSIAN, '--side', 'dam')).toEqual(alike(2))
    expect(await counts({ breeds: [RUSSIAN], claimed: false }, '--breed', RUSSIAN, '--claimed', 'no')).toEqual(alike(2))
    const sent = await admin(last(), '/campaigns', { subject: 'Shepherds', markdown: 'Hello.', segment: { breeds: [RUSSIAN] }, send: true })
    expect(sent.status, await sent.clone().text()).toBe(201)
    expect(await sent.json()).toMatchObject({ recipients: 3 })
    // A name neither the catalogue nor a mapping reads is still matched as typed (nobody here).
    expect(await apiCounts({ breeds: ['Schäferhundmix'] })).toEqual(alike(0, false))

    // A name with nothing in it to match is refused, naming the field, and nothing is saved.
    const before = ((await (await admin(first(), '/campaigns')).json()) as unknown[]).length
    const refused = await admin(first(), '/campaigns', { subject: 'S', markdown: 'x', segment: { breeds: ['!!!'] }, send: false })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { message: string }).message).toMatch(/segment\/breeds: "!!!" has no letters or digits/)
    expect(((await (await admin(first(), '/campaigns')).json()) as unknown[]).length).toBe(before)
    expect(
      await runCli(cliEnv, 'campaign', 'create', '--subject', 'S', '--markdown-file', message, '--breed', '!!!', '--dry-run'),
    ).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--breed: "!!!" has no letters or digits'),
    })
  })
})
