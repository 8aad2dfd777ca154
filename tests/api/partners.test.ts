// Partners over HTTP on both stores (docs/partners.md): the team's routes (made, listed, changed,
// rotated, disabled; viewers read, owners and editors change, every change audited; bad input a
// 400 naming the field, nothing saved) and the command line's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Partner, PartnerDetail, PartnerSnippets } from '../../contract/partners'
import { EMBED_FRAME_HEIGHT, PARTNER_KEY_PATTERN } from '../../contract/partners'
import { pageContent } from '../../web/content'
import { runCli } from '../support/process'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { asOperator, asToken, joinTeam, type TestOperator } from '../support/team'

const ADMIN_TOKEN = 'admin-token-for-the-partner-tests-0123'
const CLUB = 'https://club.example'

describe.each(STORES)('partners on $kind', ({ kind, available }) => {
  let server: TestServer
  let viewer: TestOperator
  let editor: TestOperator
  beforeAll(async () => {
    if (!available) return
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' }, kind)
    viewer = await joinTeam(server, 'viewer@kennect.example', 'viewer')
    editor = await joinTeam(server, 'editor@kennect.example', 'editor')
  })
  afterAll(() => server?.close())

  const admin = asToken(() => server, ADMIN_TOKEN)
  const listed = async () => (await (await admin('/partners')).json()) as Partner[]
  const make = async (body: Record<string, unknown>): Promise<Partner> => {
    const answer = await admin('/partners', { method: 'POST', body })
    if (answer.status !== 201) throw new Error(`making a partner answered ${answer.status}: ${await answer.text()}`)
    return (await answer.json()) as Partner
  }

  it.skipIf(!available)('makes a partner with a public key of its own, and lists it with its counts', async () => {
    const partner = await make({
      name: '  Labrador Club  ',
      origins: ['https://Club.Example/', 'http://localhost:5173', CLUB],
      thanksUrl: `${CLUB}/thanks?from=kennect`,
      breed: 'Labrador',
      country: 'de',
    })
    // The key: URL-safe, 128 random bits, bound to the origins (each kept as an exact origin, once).
    expect(partner).toEqual({
      id: expect.any(Number) as unknown,
      name: 'Labrador Club',
      key: expect.stringMatching(PARTNER_KEY_PATTERN) as unknown,
      origins: [CLUB, 'http://localhost:5173'],
      thanksUrl: `${CLUB}/thanks?from=kennect`,
      breed: 'labrador-retriever',
      breedName: 'Labrador Retriever',
      country: 'DE',
      disabled: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
      signups: 0,
      confirmed: 0,
    })
    const other = await make({ name: 'Pug Kennel', origins: ['https://pugs.example'] })
    expect(other.key).not.toBe(partner.key)
    expect(other).toMatchObject({ thanksUrl: null, breed: null, country: null })
    expect((await listed()).filter((p) => [partner.id, other.id].includes(p.id))).toEqual([partner, other])
    const detail = (await (await admin(`/partners/${partner.id}`)).json()) as PartnerDetail
    expect(detail).toEqual({ ...partner, countries: [], breeds: [] })
    expect((await admin('/partners/99999')).status).toBe(404)
  })

  it.skipIf(!available)(
    'gives the three snippets to paste, in the language asked, the form with no token (a static page has none)',
    async () => {
      const partner = await make({ name: 'Club de France', origins: [CLUB], country: 'FR' })
      const answer = await admin(`/partners/${partner.id}/snippets?lang=fr`)
      expect(answer.status).toBe(200)
      const snippets = (await answer.json()) as PartnerSnippets
      const site = server.app.siteUrl()
      const fr = pageContent('fr')
      expect(snippets.locale).toBe('fr')
      expect(snippets.script).toBe(`<script src="${site}/embed.js" data-partner="${partner.key}" data-lang="fr" async></script>`)
      expect(snippets.iframe).toBe(
        `<iframe src="${site}/embed/${partner.key}?lang=fr" title="${fr.header.join}" width="100%" height="${EMBED_FRAME_HEIGHT.meter}" loading="lazy"></iframe>`,
      )
      expect(snippets.form).toContain(`<form method="post" action="${site}/embed/${partner.key}/join">`)
      expect(snippets.form).toContain(`<input type="hidden" name="locale" value="fr">`)
      expect(snippets.form).toContain(`<button type="submit">${fr.waitlist.submit}</button>`)
      expect(snippets.form).toContain('<input name="website" tabindex="-1" autocomplete="off">')
      expect(snippets.form).not.toMatch(/token/)
      const refused = await admin(`/partners/${partner.id}/snippets?lang=xx`)
      expect(refused.status).toBe(400)
      expect(((await refused.json()) as { message: string }).message).toMatch(/^querystring\/lang /)
    },
  )

  it.skipIf(!available)('refuses bad input with a 400 that names the field, and saves nothing', async () => {
    const before = await listed()
    const good = { name: 'Club', origins: [CLUB] }
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...good, origins: ['https://club.example/join'] }, /^origins\/0: an origin is scheme, host and port only, no path/],
      [{ ...good, origins: ['https://club.example?x=1'] }, /^origins\/0: an origin is scheme, host and port only/],
      [{ ...good, origins: ['http://club.example'] }, /^origins\/0: https:\/\//],
      [{ ...good, origins: ['https://ada:pw@club.example'] }, /^origins\/0: no user or password/],
      [{ ...good, origins: ['club'] }, /^origins\/0: not an origin/],
      // A wildcard or a list is not one origin: each would reach frame-ancestors as more than one.
      [{ ...good, origins: ['https://*'] }, /^origins\/0: a host name or an IP address/],
      [{ ...good, origins: ['https://*.club.example'] }, /^origins\/0: a host name or an IP address/],
      [{ ...good, origins: ['https://a;b.example'] }, /^origins\/0: a host name or an IP address/],
      [{ ...good, origins: ['https://a,b.example'] }, /^origins\/0: a host name or an IP address/],
      [{ ...good, origins: [] }, /^origins: at least one/],
      [{ ...good, name: '   ' }, /^name: 1 to 100 characters/],
      [{ ...good, name: 'Two\nlines' }, /^name: 1 to 100 characters on one line/],
      [{ ...good, thanksUrl: 'https://elsewhere.example/thanks' }, /^thanksUrl: must be on one of the partner's origins/],
      [{ ...good, breed: 'Unicorn' }, /^breed: not a breed of the catalogue/],
      [{ ...good, country: 'XX' }, /^country: an ISO 3166-1 code/],
      [{ origins: [CLUB] }, /^body must have required property 'name'/],
      [{ ...good, key: 'mine' }, /^body\/key: unknown field/],
      [{ ...good, disabled: true }, /^body\/disabled: unknown field/],
    ]
    for (const [body, message] of cases) {
      const answer = await admin('/partners', { method: 'POST', body })
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(((await answer.json()) as { message: string }).message, JSON.stringify(body)).toMatch(message)
    }
    const partner = await make(good)
    for (const [body, message] of [
      [{ origins: ['https://club.example/x'] }, /^origins\/0:/],
      [{ thanksUrl: 'https://elsewhere.example/' }, /^thanksUrl:/],
      [{}, /^body must NOT have fewer than 1 properties/],
    ] as const) {
      const answer = await admin(`/partners/${partner.id}`, { method: 'PATCH', body })
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(((await answer.json()) as { message: string }).message).toMatch(message)
    }
    // Origins changed under a thanks URL they no longer hold: refused unless it changes with them.
    await admin(`/partners/${partner.id}`, { method: 'PATCH', body: { thanksUrl: `${CLUB}/thanks` } })
    const moved = await admin(`/partners/${partner.id}`, { method: 'PATCH', body: { origins: ['https://new.example'] } })
    expect(moved.status).toBe(400)
    expect(((await moved.json()) as { message: string }).message).toMatch(/^thanksUrl: must be on one of the partner's origins/)
    expect((await listed()).filter((p) => !before.some((b) => b.id === p.id))).toEqual([{ ...partner, thanksUrl: `${CLUB}/thanks` }])
  })

  it.skipIf(!available)('lets viewers read, and owners and editors change, rotate and disable; each change audit-logged', async () => {
    const asViewer = asOperator(server, viewer)
    const asEditor = asOperator(server, editor)
    expect((await asViewer('/partners', { method: 'POST', body: { name: 'No', origins: [CLUB] } })).status).toBe(403)
    const made = await asEditor('/partners', { method: 'POST', body: { name: 'Setter Club', origins: ['https://setters.example'] } })
    expect(made.status).toBe(201)
    const partner = (await made.json()) as Partner
    expect((await asViewer('/partners')).status).toBe(200)
    expect((await asViewer(`/partners/${partner.id}`)).status).toBe(200)
    expect((await asViewer(`/partners/${partner.id}`, { method: 'PATCH', body: { disabled: true } })).status).toBe(403)
    expect((await asViewer(`/partners/${partner.id}/key`, { method: 'POST' })).status).toBe(403)

    const changed = await asEditor(`/partners/${partner.id}`, {
      method: 'PATCH',
      body: { name: 'Irish Setter Club', breed: 'irish-red-setter', country: 'IE' },
    })
    expect(await changed.json()).toEqual({
      ...partner,
      name: 'Irish Setter Club',
      breed: 'irish-red-setter',
      breedName: 'Irish Red Setter',
      country: 'IE',
    })
    const rotated = (await (await asEditor(`/partners/${partner.id}/key`, { method: 'POST' })).json()) as Partner
    expect(rotated.key).toMatch(PARTNER_KEY_PATTERN)
    expect(rotated.key).not.toBe(partner.key)
    expect(await server.app.store.partners.byKey(partner.key)).toBeUndefined()
    const disabled = (await (await asEditor(`/partners/${partner.id}`, { method: 'PATCH', body: { disabled: true } })).json()) as Partner
    expect(disabled.disabled).toBe(true)
    expect(await server.app.store.partners.byKey(rotated.key)).toBeUndefined()
    expect((await asEditor('/partners/99999/key', { method: 'POST' })).status).toBe(404)

    const audit = (await (await admin('/audit?limit=50')).json()) as { items: { action: string; actor: string; target: string | null }[] }
    expect(audit.items.filter((line) => line.target === `partner ${partner.id}`).map((line) => [line.action, line.actor])).toEqual([
      ['partner changed', editor.email],
      ['partner key rotated', editor.email],
      ['partner changed', editor.email],
      ['partner added', editor.email],
    ])
  })

  it.skipIf(!available)('does the same from the command line: partners add, list, rotate, disable', async () => {
    const env = (
      server.config.DATABASE_URL ? { DATABASE_URL: server.config.DATABASE_URL } : { SQLITE_PATH: server.config.SQLITE_PATH }
    ) as Record<string, string>
    const cli = (...args: string[]) => runCli({ ...env, SITE_URL: 'https://kennect.example' }, ...args)
    const added = await cli(
      'partners',
      'add',
      'Beagle',
      'Friends',
      '--origin',
      'https://beagles.example',
      '--breed',
      'beagle',
      '--country',
      'fr',
    )
    expect(added.code, added.stderr).toBe(0)
    const key = /key ([A-Za-z0-9_-]{22})\./.exec(added.stdout)?.[1] ?? ''
    expect(added.stdout).toContain(`<script src="https://kennect.example/embed.js" data-partner="${key}" async></script>`)
    const id = (await server.app.store.partners.byKey(key))?.id
    expect(id).toBeGreaterThan(0)
    expect((await cli('partners', 'list')).stdout).toMatch(
      new RegExp(
        `^ +${id}  enabled   Beagle Friends  key ${key}  https://beagles.example  sign-ups 0, confirmed 0  breed beagle  country FR$`,
        'm',
      ),
    )
    const refused = await cli('partners', 'add', 'Bad', '--origin', 'https://beagles.example/path')
    expect(refused).toMatchObject({ code: 2 })
    expect(refused.stderr).toMatch(/^--origin: an origin is scheme, host and port only/)
    expect((await cli('partners', 'add', 'Bad', '--origin', CLUB, '--breed', 'Unicorn')).stderr).toMatch(/^--breed: not a breed/)

    const rotated = await cli('partners', 'rotate', String(id))
    expect(rotated.code).toBe(0)
    const next = /new key, ([A-Za-z0-9_-]{22})/.exec(rotated.stdout)?.[1] ?? ''
    expect(await server.app.store.partners.byKey(key)).toBeUndefined()
    expect((await server.app.store.partners.byKey(next))?.id).toBe(id)
    expect(await cli('partners', 'disable', String(id))).toMatchObject({ code: 0 })
    expect(await server.app.store.partners.byKey(next)).toBeUndefined()
    expect(await cli('partners', 'enable', String(id))).toMatchObject({ code: 0 })
    expect((await server.app.store.partners.byKey(next))?.id).toBe(id)
    expect(await cli('partners', 'rotate', '99999')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no partner 99999') as unknown,
    })
    const audit = await server.app.store.team.auditLog({ limit: 10 })
    expect(audit.filter((line) => line.target === `partner ${id}`).map((line) => [line.action, line.actor])).toEqual([
      ['partner changed', 'command line'],
      ['partner changed', 'command line'],
      ['partner key rotated', 'command line'],
      ['partner added', 'command line'],
    ])
  })
})
