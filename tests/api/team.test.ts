// The team's API over HTTP, on both stores (docs/decisions/017-the-team.md): every admin route
// names a permission and the gate holds on each; API tokens; e-mail sign-in links; the session
// cookie's flags, fixation, expiry and its end on a role change; writes from another site; the
// recent sign-in; the audit log; the lockout per operator and per client.
import { createHash } from 'node:crypto'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROLE_PERMISSIONS, TEAM_TIMES } from '../../contract/team'
import { teamGate } from '../../server/team/auth'
import { announceSetup } from '../../server/team/setup-link'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { asOperator, inviteToken, joinTeam, runSql, sameSql, sessionCookieOf, teamLinkFor, type TestOperator } from '../support/team'

const ADMIN_TOKEN = 'break-glass-admin-token-0123456789'
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

it('refuses at start an admin route that names no permission', async () => {
  const app = Fastify()
  app.decorate('adminApiRoutes', [])
  teamGate(app, undefined)
  let refused: unknown
  try {
    app.get('/forgotten', async () => 'open to all')
    await app.ready()
  } catch (error) {
    refused = error
  }
  expect(String(refused)).toMatch(/admin route GET \/forgotten names no permission/)
  await app.close().catch(() => undefined)
})

describe.each(STORES)('the team API on $kind', ({ kind, available }) => {
  let server: TestServer
  let owner: TestOperator
  let editor: TestOperator
  let viewer: TestOperator
  beforeAll(async () => {
    if (!available) return
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0', TRUST_PROXY: 'loopback' }, kind)
    for (const email of ['ada@example.com', 'grace@example.com', 'linus@example.com']) await server.app.store.add(row(email))
    owner = await joinTeam(server, 'owner@kennect.example', 'owner')
    editor = await joinTeam(server, 'editor@kennect.example', 'editor')
    viewer = await joinTeam(server, 'viewer@kennect.example', 'viewer')
  })
  afterAll(() => server?.close())

  /** What a refused request must leave as it was. */
  const snapshot = async () => ({
    signups: await server.app.store.count({}),
    team: (await server.app.store.team.operators()).map((o) => [o.email, o.role, o.disabled_at]),
    invitations: (await server.app.store.team.invitations()).length,
    tokens: (await server.app.store.team.tokens()).map((t) => [t.name, t.revoked_at]),
    campaigns: (await server.app.store.campaigns.list()).length,
    targets: await server.app.store.growth.launchTargets(),
  })
  /** A concrete path for a route's pattern. */
  const pathOf = (url: string) =>
    url
      .replace('/admin/api', '')
      .replace(/:token/, 'x'.repeat(43))
      .replace(/:name/, 'none.eml')
      .replace(/:\w+/g, '1')
  const bearer =
    (token: string) =>
    (path: string, init: { method?: string; body?: unknown } = {}) =>
      fetch(`${server.url}/admin/api${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      })

  it.skipIf(!available)(
    'names a permission on every route, and holds the gate on each: 401 without a caller, 403 for a role without it, nothing changed',
    async () => {
      const routes = server.app.adminApiRoutes
      expect(routes.length).toBeGreaterThan(35)
      const before = await snapshot()
      const { token } = (await (
        await bearer(ADMIN_TOKEN)('/tokens', { method: 'POST', body: { name: 'viewer-script', role: 'viewer' } })
      ).json()) as { token: string }
      const asViewer = asOperator(server, viewer)
      const checked: string[] = []
      for (const route of routes) {
        if (route.permission === 'public') continue
        const path = pathOf(route.url)
        const anonymous = await fetch(`${server.url}/admin/api${path}`, {
          method: route.method,
          ...(route.method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
        })
        expect(anonymous.status, `${route.method} ${route.url} without a caller`).toBe(401)
        const allowed = route.permission !== 'self' && ROLE_PERMISSIONS.viewer.includes(route.permission)
        if (allowed) continue
        // The viewer's session may not (a 'self' route is theirs: skipped), nor a viewer's API token.
        if (route.permission !== 'self')
          expect((await asViewer(path, { method: route.method })).status, `${route.method} ${route.url} as a viewer`).toBe(403)
        const byToken = await bearer(token)(path, route.method === 'GET' ? {} : { method: route.method, body: {} })
        expect(byToken.status, `${route.method} ${route.url} with a viewer's token`).toBe(403)
        checked.push(`${route.method} ${route.url}`)
      }
      expect(checked).toEqual(
        expect.arrayContaining([
          'GET /admin/api/export.csv',
          'DELETE /admin/api/signups',
          'POST /admin/api/campaigns/:id/send',
          'POST /admin/api/operators',
          'GET /admin/api/audit',
          'PUT /admin/api/launch-targets',
        ]),
      )
      const after = await snapshot()
      expect({ ...after, tokens: after.tokens.filter(([name]) => name !== 'viewer-script') }).toEqual(before)
    },
  )

  it.skipIf(!available)('makes API tokens that are shown once, kept as SHA-256, used with their role, timed, and revoked', async () => {
    const api = asOperator(server, owner)
    for (const bad of [
      { name: '', role: 'editor' },
      { name: 'x', role: 'god' },
      { name: 'x', role: 'editor', expiresAt: '2001-01-01T00:00:00Z' },
      { name: 'x', role: 'editor', expiresAt: 'soon' },
    ]) {
      const answer = await api('/tokens', { method: 'POST', body: bad })
      expect(answer.status, JSON.stringify(bad)).toBe(400)
    }
    const made = await api('/tokens', { method: 'POST', body: { name: 'crm-sync', role: 'editor', expiresAt: '2099-01-01T00:00:00Z' } })
    expect(made.status).toBe(201)
    const { id, token } = (await made.json()) as { id: number; token: string }
    expect(token).toMatch(/^kn_[A-Za-z0-9_-]{43}$/)
    const [stored] = await runSql(server, sameSql('SELECT token_hash FROM api_tokens WHERE id = ?'), [id])
    expect(stored?.token_hash).toBe(sha256(token))
    const listed = (await (await api('/tokens')).json()) as { id: number; last_used_at: string | null }[]
    expect(JSON.stringify(listed)).not.toContain(token)
    expect(listed.find((t) => t.id === id)?.last_used_at).toBeNull()
    const asToken = bearer(token)
    expect((await asToken('/signups')).status).toBe(200) // an editor's
    expect((await asToken('/export.csv')).status).toBe(403) // not an editor's
    const used = (await (await api('/tokens')).json()) as { id: number; last_used_at: string | null }[]
    expect(used.find((t) => t.id === id)?.last_used_at).not.toBeNull()
    // Expired: refused.
    await runSql(server, sameSql('UPDATE api_tokens SET expires_at = ? WHERE id = ?'), [new Date(Date.now() - 1000).toISOString(), id])
    expect((await asToken('/signups')).status).toBe(401)
    await runSql(server, sameSql('UPDATE api_tokens SET expires_at = ? WHERE id = ?'), ['2099-01-01T00:00:00.000Z', id])
    expect((await asToken('/signups')).status).toBe(200)
    expect((await api(`/tokens/${id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await asToken('/signups')).status).toBe(401)
    const log = (await (await api('/audit?limit=50')).json()) as { items: { actor: string; action: string; detail: unknown }[] }
    expect(log.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: owner.email, action: 'token created', detail: { name: 'crm-sync', role: 'editor' } }),
        expect.objectContaining({ actor: owner.email, action: 'token revoked' }),
      ]),
    )
  })

  it.skipIf(!available)('sends a sign-in link the same way for any address, single use, ten minutes, hashed, behind a button', async () => {
    const client = { 'x-forwarded-for': '192.0.2.40' }
    const ask = async (email: string) => {
      const started = Date.now()
      const answer = await fetch(`${server.url}/admin/api/session/link`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...client },
        body: JSON.stringify({ email }),
      })
      return { status: answer.status, body: await answer.text(), ms: Date.now() - started }
    }
    const known = await ask('Editor@Kennect.example')
    const unknown = await ask('nobody@kennect.example')
    expect(unknown).toMatchObject({ status: 202, body: known.body })
    expect(known.status).toBe(202)
    expect(Math.min(known.ms, unknown.ms)).toBeGreaterThanOrEqual(290)
    const link = await teamLinkFor(server.config.MAIL_DIR, editor.email, '/admin/sign-in')
    const token = link.split('/').at(-1) ?? ''
    expect(link.startsWith(`${server.app.siteUrl()}/admin/sign-in/`)).toBe(true)
    const stored = await runSql(server, sameSql("SELECT token_hash FROM operator_links WHERE purpose = 'sign-in' AND token_hash = ?"), [
      sha256(token),
    ])
    expect(stored).toHaveLength(1)
    const clear = await runSql(server, sameSql('SELECT count(*) AS n FROM outbox WHERE token = ?'), [token])
    expect(Number(clear[0]?.n)).toBe(0) // the clear token left the outbox with its mail
    // Opening it signs nobody in.
    const opened = await fetch(link)
    expect(opened.status).toBe(200)
    expect(opened.headers.getSetCookie()).toEqual([])
    const openedPage = await opened.text()
    expect(openedPage).toContain('<button type="submit">Sign in</button>')
    // It neither shows the token nor tells a live link from a dead one: an unknown token gets the same page.
    expect(openedPage).not.toContain(token)
    const unknownLink = await fetch(`${server.url}/admin/sign-in/${'B'.repeat(43)}`)
    expect(unknownLink.status).toBe(200)
    expect(await unknownLink.text()).toBe(openedPage)
    // Another site's form, and a sandboxed one (Origin: null), cannot use it.
    for (const origin of ['https://evil.example', 'null'])
      expect((await fetch(link, { method: 'POST', headers: { origin }, redirect: 'manual' })).status).toBe(403)
    const pressed = await fetch(link, { method: 'POST', headers: { origin: server.app.siteUrl() }, redirect: 'manual' })
    expect(pressed.status).toBe(303)
    expect(pressed.headers.get('location')).toBe('/admin')
    const cookie = pressed.headers.getSetCookie()[0] ?? ''
    expect(cookie).toMatch(/^kennect_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/admin; HttpOnly; SameSite=Strict$/)
    // Once only.
    expect((await fetch(link, { method: 'POST', headers: { origin: server.app.siteUrl() }, redirect: 'manual' })).status).toBe(410)
    // Ten minutes: an older link is gone.
    await ask(editor.email)
    const second = await teamLinkFor(server.config.MAIL_DIR, editor.email, '/admin/sign-in', new Set([link]))
    await runSql(server, sameSql('UPDATE operator_links SET expires_at = ? WHERE token_hash = ?'), [
      new Date(Date.now() - 1000).toISOString(),
      sha256(second.split('/').at(-1) ?? ''),
    ])
    expect((await fetch(second, { method: 'POST', headers: { origin: server.app.siteUrl() }, redirect: 'manual' })).status).toBe(410)
  })

  it.skipIf(!available)('sends at most 5 links an hour to an address and takes 20 asks an hour from a client', async () => {
    const ask = (email: string, ip: string) =>
      fetch(`${server.url}/admin/api/session/link`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ email }),
      })
    const mailsTo = async (email: string) =>
      Number(
        (
          await runSql(server, sameSql("SELECT count(*) AS n FROM operator_links WHERE purpose = 'sign-in' AND lower(email) = ?"), [email])
        )[0]?.n,
      )
    const start = await mailsTo(viewer.email)
    const statuses = []
    for (let i = 0; i < 7; i++) statuses.push((await ask(viewer.email, `198.51.100.${i + 1}`)).status)
    expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 202]) // the same answer all along
    expect((await mailsTo(viewer.email)) - start).toBe(5)
    const fromOne = []
    for (let i = 0; i < 21; i++) fromOne.push((await ask(`someone${i}@kennect.example`, '203.0.113.9')).status)
    expect(fromOne.slice(0, 20).every((status) => status === 202)).toBe(true)
    expect(fromOne[20]).toBe(429)
  })

  it.skipIf(!available)('makes a new session at every sign-in: a cookie planted before, or the one before, opens nothing', async () => {
    const planted = 'kennect_session=' + 'A'.repeat(43)
    expect((await fetch(`${server.url}/admin/api/stats`, { headers: { cookie: planted } })).status).toBe(401)
    // Who is signed in: API clients get a 401 without a session; the admin page asks the question that answers 200.
    expect((await fetch(`${server.url}/admin/api/session`, { headers: { cookie: planted } })).status).toBe(401)
    const current = await fetch(`${server.url}/admin/api/session/current`, { headers: { cookie: planted } })
    expect(current.status).toBe(200)
    expect(await current.json()).toEqual({ session: null })
    expect(
      ((await (await asOperator(server, owner)('/session/current')).json()) as { session: { operator: { email: string } } }).session
        .operator.email,
    ).toBe(owner.email)
    const before = await joinTeam(server, 'fixation@kennect.example', 'editor')
    // Signing in again from the same browser, which sends its old cookie along.
    const operator = await server.app.store.team.operatorByEmail('fixation@kennect.example')
    const { token } = await server.app.store.team.addLink(
      {
        purpose: 'sign-in',
        email: operator?.email ?? '',
        role: null,
        operator_id: operator?.id ?? 0,
        locale: null,
        createdBy: null,
        expires_at: new Date(Date.now() + TEAM_TIMES.signInLinkMs).toISOString(),
      },
      { mail: false, audit: null },
    )
    const again = await fetch(`${server.url}/admin/sign-in/${token}`, {
      method: 'POST',
      headers: { origin: server.url, cookie: before.cookie },
      redirect: 'manual',
    })
    const after = sessionCookieOf(again)
    expect(after).not.toBe(before.cookie)
    expect((await fetch(`${server.url}/admin/api/stats`, { headers: { cookie: before.cookie } })).status).toBe(401)
    expect((await fetch(`${server.url}/admin/api/stats`, { headers: { cookie: after } })).status).toBe(200)
    // Sessions are kept as hashes only.
    const id = after.split('=')[1] ?? ''
    expect(await runSql(server, sameSql('SELECT id_hash FROM operator_sessions WHERE id_hash = ?'), [id])).toHaveLength(0)
    expect(await runSql(server, sameSql('SELECT id_hash FROM operator_sessions WHERE id_hash = ?'), [sha256(id)])).toHaveLength(1)
  })

  it.skipIf(!available)('ends a session after an hour idle, at twelve hours, at sign-out, and at a role change or disabling', async () => {
    // A session's last sight is written at most once a minute: polls within it write nothing.
    const polling = await joinTeam(server, 'polling@kennect.example', 'viewer')
    const seen = async () =>
      String(
        (await runSql(server, sameSql('SELECT last_seen_at FROM operator_sessions WHERE operator_id = ?'), [polling.id]))[0]?.last_seen_at,
      )
    const first = await seen()
    for (let i = 0; i < 3; i++) expect((await asOperator(server, polling)('/stats')).status).toBe(200)
    expect(await seen()).toBe(first)
    const twoMinutesAgo = new Date(Date.now() - 2 * 60_000).toISOString()
    await runSql(server, sameSql('UPDATE operator_sessions SET last_seen_at = ? WHERE operator_id = ?'), [twoMinutesAgo, polling.id])
    expect((await asOperator(server, polling)('/stats')).status).toBe(200)
    expect(Date.parse(await seen())).toBeGreaterThan(Date.parse(twoMinutesAgo) + 60_000)
    const idle = await joinTeam(server, 'idle@kennect.example', 'viewer')
    const [row0] = await runSql(server, sameSql('SELECT created_at, expires_at FROM operator_sessions WHERE operator_id = ?'), [idle.id])
    expect(
      Date.parse(String(new Date(String(row0?.expires_at)).toISOString())) - Date.parse(new Date(String(row0?.created_at)).toISOString()),
    ).toBe(TEAM_TIMES.sessionMs)
    await runSql(server, sameSql('UPDATE operator_sessions SET last_seen_at = ? WHERE operator_id = ?'), [
      new Date(Date.now() - 61 * 60_000).toISOString(),
      idle.id,
    ])
    expect((await asOperator(server, idle)('/stats')).status).toBe(401)
    const old = await joinTeam(server, 'old@kennect.example', 'viewer')
    await runSql(server, sameSql('UPDATE operator_sessions SET expires_at = ? WHERE operator_id = ?'), [
      new Date(Date.now() - 1000).toISOString(),
      old.id,
    ])
    expect((await asOperator(server, old)('/stats')).status).toBe(401)
    const leaving = await joinTeam(server, 'leaving@kennect.example', 'viewer')
    const out = await asOperator(server, leaving)('/session', { method: 'DELETE' })
    expect(out.status).toBe(204)
    expect(out.headers.getSetCookie()[0]).toBe(
      'kennect_session=; Max-Age=0; Path=/admin; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict',
    )
    expect((await asOperator(server, leaving)('/stats')).status).toBe(401)
    const moved = await joinTeam(server, 'moved@kennect.example', 'editor')
    const disabled = await joinTeam(server, 'disabled@kennect.example', 'editor')
    const api = asOperator(server, owner)
    expect((await api(`/operators/${moved.id}`, { method: 'PATCH', body: { role: 'viewer' } })).status).toBe(200)
    expect((await asOperator(server, moved)('/stats')).status).toBe(401)
    expect((await api(`/operators/${disabled.id}`, { method: 'PATCH', body: { disabled: true } })).status).toBe(200)
    expect((await asOperator(server, disabled)('/stats')).status).toBe(401)
    // A disabled operator gets no link either.
    expect(
      (
        await runSql(server, sameSql("SELECT count(*) AS n FROM operator_links WHERE purpose = 'sign-in' AND operator_id = ?"), [
          disabled.id,
        ])
      )[0]?.n,
    ).toBe(kind === 'postgres' ? '0' : 0)
    // The team keeps an enabled owner.
    expect((await api(`/operators/${owner.id}`, { method: 'PATCH', body: { role: 'editor' } })).status).toBe(409)
    expect((await api(`/operators/${owner.id}`, { method: 'PATCH', body: { disabled: true } })).status).toBe(409)
    expect((await api('/operators/9999', { method: 'PATCH', body: { role: 'viewer' } })).status).toBe(404)
    expect((await api(`/operators/${moved.id}`, { method: 'PATCH', body: { role: 'viewer', disabled: true } })).status).toBe(400)
  })

  it.skipIf(!available)(
    'refuses a write that carries the cookie from another site, without Origin, or not as JSON, changing nothing',
    async () => {
      const before = await snapshot()
      const write = (headers: Record<string, string>, body = JSON.stringify({ email: 'mallory@evil.example', role: 'owner' })) =>
        fetch(`${server.url}/admin/api/operators`, { method: 'POST', headers: { cookie: owner.cookie, ...headers }, body })
      const crossSite = await write({ origin: 'https://evil.example', 'content-type': 'application/json' })
      expect(crossSite.status).toBe(403)
      expect(await crossSite.json()).toMatchObject({ code: 'cross_origin' })
      expect((await write({ 'content-type': 'application/json' })).status).toBe(403)
      expect((await write({ origin: server.url, 'content-type': 'text/plain' })).status).toBe(415)
      expect(
        (
          await write(
            { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
            'email=mallory%40evil.example&role=owner',
          )
        ).status,
      ).toBe(415)
      expect(await snapshot()).toEqual(before)
    },
  )

  it.skipIf(!available)(
    'asks for a sign-in within 15 minutes before an export, a deletion or a team change; ADMIN_TOKEN is the owner’s break-glass',
    async () => {
      const stale = await joinTeam(server, 'stale-owner@kennect.example', 'owner')
      await runSql(server, sameSql('UPDATE operator_sessions SET created_at = ? WHERE operator_id = ?'), [
        new Date(Date.now() - 16 * 60_000).toISOString(),
        stale.id,
      ])
      const api = asOperator(server, stale)
      expect((await api('/stats')).status).toBe(200) // reading is fine
      for (const [path, method] of [
        ['/export.csv', 'GET'],
        ['/signups?email=linus%40example.com', 'DELETE'],
        ['/operators', 'POST'],
        ['/tokens', 'POST'],
      ] as const) {
        const answer = await api(path, { method, body: { email: 'x@kennect.example', role: 'viewer', name: 'x' } })
        expect(answer.status, `${method} ${path}`).toBe(403)
        expect(await answer.json()).toMatchObject({ code: 'recent_sign_in_required' })
      }
      expect(await server.app.store.count({})).toBe(3)
      // The break-glass token deletes; the log names it and the sign-up's number, not the address.
      const [linus] = await server.app.store.list({ limit: 1, search: 'linus@example.com' })
      const removed = await bearer(ADMIN_TOKEN)('/signups?email=linus%40example.com', { method: 'DELETE' })
      expect(await removed.json()).toEqual({ removed: true })
      const log = (await (await bearer(ADMIN_TOKEN)('/audit?limit=200')).json()) as {
        items: { actor: string; action: string; target: string | null }[]
      }
      expect(log.items).toContainEqual(
        expect.objectContaining({ actor: 'ADMIN_TOKEN', action: 'signup deleted', target: `signup ${linus?.id}` }),
      )
      const exported = await bearer(ADMIN_TOKEN)('/export.csv')
      expect(exported.status).toBe(200)
      const after = (await (await bearer(ADMIN_TOKEN)('/audit?limit=1')).json()) as { items: { action: string; detail: unknown }[] }
      expect(after.items[0], JSON.stringify(after.items)).toMatchObject({ action: 'signups exported', detail: { rows: 2 } })
    },
  )

  it.skipIf(!available)('answers a link with the language its page speaks: the invitation’s, or none on the first owner’s', async () => {
    const invitation = await inviteToken(server, 'juliette@kennect.example', 'viewer', 'invite', 'fr')
    const setup = await inviteToken(server, null, 'owner', 'setup')
    const read = async (token: string) => (await fetch(`${server.url}/admin/api/setup/${token}`)).json()
    expect(await read(invitation)).toMatchObject({ purpose: 'invite', email: 'juliette@kennect.example', role: 'viewer', locale: 'fr' })
    expect(await read(setup)).toMatchObject({ purpose: 'setup', email: null, role: 'owner', locale: null })
  })

  it.skipIf(!available)('revokes an invitation: owners only, its link stops opening at once, audited, once', async () => {
    const api = asOperator(server, owner)
    const mistyped = 'mistyped@kennect.exmaple'
    const token = await inviteToken(server, mistyped, 'editor')
    const open = async () => ((await (await api('/operators')).json()) as { invitations: { id: number; email: string }[] }).invitations
    const invitation = (await open()).find((i) => i.email === mistyped)
    expect(invitation).toBeDefined()
    const path = `/operators/invitations/${invitation?.id}`
    expect((await asOperator(server, editor)(path, { method: 'DELETE' })).status).toBe(403)
    expect((await open()).map((i) => i.email)).toContain(mistyped)
    expect((await api(path, { method: 'DELETE' })).status).toBe(204)
    expect((await open()).map((i) => i.email)).not.toContain(mistyped)
    // The link no longer opens, nor makes an operator.
    expect((await fetch(`${server.url}/admin/api/setup/${token}`)).status).toBe(404)
    const accepted = await fetch(`${server.url}/admin/api/setup/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ name: 'Mistyped' }),
    })
    expect(accepted.status).toBe(404)
    expect(await server.app.store.team.operatorByEmail(mistyped)).toBeUndefined()
    // Once: a second revoke, an unknown id, and a bad one.
    expect((await api(path, { method: 'DELETE' })).status).toBe(404)
    expect((await api('/operators/invitations/999999', { method: 'DELETE' })).status).toBe(404)
    expect((await api('/operators/invitations/x', { method: 'DELETE' })).status).toBe(400)
    const { items } = (await (await api('/audit?limit=20')).json()) as { items: { action: string; target: string; actor: string }[] }
    expect(items.filter((i) => i.action === 'invitation revoked')).toEqual([
      expect.objectContaining({ target: `invitation ${invitation?.id}`, actor: owner.email }),
    ])
  })

  it.skipIf(!available)('keeps an append-only audit log in pages, with no visitor address in it', async () => {
    const api = asOperator(server, owner)
    const first = (await (await api('/audit?limit=3')).json()) as { items: { id: number; at: string }[]; next: number | null }
    expect(first.items).toHaveLength(3)
    expect(first.next).toBe(first.items[2]?.id)
    const second = (await (await api(`/audit?limit=3&before=${first.next}`)).json()) as { items: { id: number }[] }
    expect(Math.max(...second.items.map((i) => i.id))).toBeLessThan(Math.min(...first.items.map((i) => i.id)))
    for (const bad of ['limit=0', 'limit=201', 'before=x', 'colour=red']) expect((await api(`/audit?${bad}`)).status, bad).toBe(400)
    const all = JSON.stringify(await runSql(server, sameSql('SELECT * FROM audit_log')))
    for (const email of ['ada@example.com', 'grace@example.com', 'linus@example.com']) expect(all).not.toContain(email)
    await expect(runSql(server, sameSql("UPDATE audit_log SET actor = 'someone else'"))).rejects.toThrow(/append-only/)
  })

  it.skipIf(!available)('locks out a client after ten failed sign-ins, and an operator after ten from anywhere', async () => {
    const target = await joinTeam(server, 'locked@kennect.example', 'viewer')
    await server.app.store.team.addPasskey(
      target.id,
      { id: 'locked-credential', name: 'Phone', public_key: Buffer.from('not a key').toString('base64url'), counter: 0, transports: [] },
      { actorId: target.id, actor: target.email, action: 'passkey added', target: null, detail: null, requestId: null },
    )
    const attempt = (credential: string, ip: string) =>
      fetch(`${server.url}/admin/api/session/passkey`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ challengeId: 'none', response: { id: credential, rawId: credential, type: 'public-key', response: {} } }),
      })
    // Per operator: ten failures from ten addresses, then even a new address is refused for them.
    const perOperator = []
    for (let i = 0; i < 11; i++) perOperator.push((await attempt('locked-credential', `192.0.2.${100 + i}`)).status)
    expect(perOperator).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 429])
    expect((await attempt('locked-credential', '192.0.2.200')).status).toBe(429)
    // Per client: ten failures with unknown passkeys from one address, then that address is refused.
    const perClient = []
    for (let i = 0; i < 11; i++) perClient.push((await attempt(`unknown-${i}`, '192.0.2.77')).status)
    expect(perClient).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 429])
    expect((await attempt('unknown-x', '192.0.2.78')).status).toBe(401) // another address still may try
    const log = (await (await asOperator(server, owner)('/audit?limit=30')).json()) as { items: { actor: string; action: string }[] }
    expect(log.items.filter((i) => i.action === 'sign-in failed' && i.actor === target.email).length).toBeGreaterThanOrEqual(10)
  })

  it.skipIf(!available)('prints the first start’s setup line only while the team has no operator', async () => {
    const lines: string[] = []
    await announceSetup(server.app, (line) => lines.push(line))
    expect(lines).toEqual([])
  })
})

describe('the session cookie behind https', () => {
  it('is __Host-kennect_session, Secure, Path=/, HttpOnly, SameSite=Strict', async () => {
    const server = await startServer({ SITE_URL: 'https://waitlist.kennect.example' })
    try {
      const lines: string[] = []
      await announceSetup(server.app, (line) => lines.push(line))
      expect(lines[0]).toMatch(
        /^No operator yet: the first owner sets up the admin page within the hour at https:\/\/waitlist\.kennect\.example\/admin\/setup\/[A-Za-z0-9_-]{43}$/,
      )
      const token = lines[0]?.split('/').at(-1) ?? ''
      // The first owner must bring a passkey.
      const bare = await fetch(`${server.url}/admin/api/setup/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://waitlist.kennect.example' },
        body: JSON.stringify({ email: 'first@kennect.example' }),
      })
      expect(bare.status).toBe(400)
      expect(await bare.json()).toMatchObject({ code: 'passkey_required' })
      const { token: invite } = await server.app.store.team.addLink(
        {
          purpose: 'invite',
          email: 'https@kennect.example',
          role: 'viewer',
          operator_id: null,
          locale: null,
          createdBy: null,
          expires_at: new Date(Date.now() + 60_000).toISOString(),
        },
        { mail: false, audit: null },
      )
      const joined = await fetch(`${server.url}/admin/api/setup/${invite}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://waitlist.kennect.example' },
        body: JSON.stringify({}),
      })
      expect(joined.status).toBe(201)
      expect(joined.headers.getSetCookie()[0]).toMatch(
        /^__Host-kennect_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
      )
    } finally {
      await server.close()
    }
  })
})
