// The team, as it comes together in Chromium, on both stores (docs/decisions/017-the-team.md): the
// first owner comes in from the setup link the server prints and creates a passkey (Chromium's
// virtual authenticator), invites an editor and a viewer by mail, the editor signs in by passkey
// and the viewer by e-mail link; each role sees and may do what it should, the owner signs in again
// to send, disabling the editor ends their session at their next request, a cross-site write with
// the cookie is refused, and the audit log names who did each step. The page keeps no secret.
// Over plain http at a LAN name (no secure context, so no passkeys), the setup page says so before
// trying, and shows the ways in that work (issue 49, item 12).
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { adminContent as copy } from '../support/admin-words'
import { announceSetup } from '../../server/team/setup-link'
import { chromiumAvailable } from '../support/chromium'
import { useServerAndBrowser } from '../support/browser-suite'
import { clickAndConfirm } from '../support/page'
import { row } from '../support/rows'
import { STORES } from '../support/stores'
import { ageSessions, inviteToken, teamLinkFor, withAuthenticator } from '../support/team'

const OWNER = 'owner@kennect.example'
const EDITOR = 'editor@kennect.example'
const VIEWER = 'viewer@kennect.example'
const VISITORS = ['ada@example.com', 'grace@example.com']

const nav = (page: Page) => page.getByRole('navigation', { name: copy.nav.label })
const open = async (page: Page, view: string) => {
  await nav(page).getByRole('link', { name: view, exact: true }).click()
  await page.getByRole('main', { name: view }).waitFor()
}
/** What the page's own script can reach of the session: nothing. */
const pageSecrets = (page: Page) => page.evaluate(() => ({ stored: sessionStorage.length + localStorage.length, cookie: document.cookie }))
/** A call from inside the page, as its script (or an injected one) would make it, with the cookie. */
const fromPage = (page: Page, path: string, method = 'GET') =>
  page.evaluate(
    async ({ path, method }) =>
      (
        await fetch(path, {
          method,
          credentials: 'same-origin',
          ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
        })
      ).status,
    { path, method },
  )

describe.skipIf(!chromiumAvailable).each(STORES)('the team on $kind', ({ kind, available }) => {
  /** The site as the mails and passkeys know it: http://localhost:<port> (WebAuthn needs a name, not an IP). */
  let site: string
  const suite = useServerAndBrowser(
    { MAIL_RATE_PER_SECOND: '0' },
    {
      kind,
      available,
      seed: async (server) => {
        site = server.app.siteUrl()
        for (const email of VISITORS) await server.app.store.add(row(email))
      },
    },
  )

  it.skipIf(!available)(
    'comes together by setup link, invitations, passkeys and an e-mail link, each role in its place',
    { timeout: 120_000 },
    async () => {
      expect(site).toMatch(/^http:\/\/localhost:\d+$/)
      // The first start's line, as the server prints it while there is no operator.
      const lines: string[] = []
      await announceSetup(suite.server.app, (line) => lines.push(line))
      const setup = /(http:\/\/\S+\/admin\/setup\/[A-Za-z0-9_-]{43})$/.exec(lines[0] ?? '')?.[1]
      expect(setup, lines[0]).toBeDefined()

      // The owner: the setup link, an address and a name, a passkey.
      const ownerContext = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })
      const owner = await withAuthenticator(ownerContext)
      await owner.goto(setup ?? '')
      await owner.getByRole('heading', { name: copy.setup.heading('setup') }).waitFor()
      // The first owner cannot come in without a passkey: there is no button for it.
      expect(await owner.getByRole('button', { name: copy.setup.withoutPasskey }).count()).toBe(0)
      await owner.getByLabel(copy.setup.email).fill(OWNER)
      await owner.getByLabel(copy.setup.name).fill('Olivia Owner')
      await owner.getByLabel(copy.setup.passkeyName).fill('Olivia’s laptop')
      await owner.getByRole('button', { name: copy.setup.create }).click()
      await nav(owner).waitFor()
      expect(owner.url()).toBe(`${site}/admin`)
      // The setup link works once.
      expect((await fetch(`${setup?.replace('/admin/setup/', '/admin/api/setup/')}`)).status).toBe(404)

      // Invitations by mail, with the role chosen.
      await open(owner, copy.nav.team)
      for (const [email, role] of [
        [EDITOR, 'editor'],
        [VIEWER, 'viewer'],
      ] as const) {
        await owner.getByLabel(copy.team.inviteEmail).fill(email)
        await owner.getByRole('radio', { name: copy.team.roles[role] }).check()
        await owner.getByRole('button', { name: copy.team.sendInvite }).click()
        await owner.getByRole('status').getByText(copy.team.invited(email)).waitFor()
      }
      await owner.getByRole('region', { name: copy.team.invitations }).getByText(VIEWER).waitFor()
      // A mistyped invitation is revoked from the list: gone from it, its link dead.
      const MISTYPED = 'vewer@kennect.example'
      await owner.getByLabel(copy.team.inviteEmail).fill(MISTYPED)
      await owner.getByRole('button', { name: copy.team.sendInvite }).click()
      await owner.getByRole('status').getByText(copy.team.invited(MISTYPED)).waitFor()
      const mistypedLink = await teamLinkFor(suite.server.config.MAIL_DIR, MISTYPED, '/admin/setup')
      await clickAndConfirm(owner, owner.getByRole('button', { name: copy.team.revokeInvitationLabel(MISTYPED) }))
      await owner.getByRole('status').getByText(copy.team.invitationRevoked(MISTYPED)).waitFor()
      await expect.poll(() => owner.getByRole('region', { name: copy.team.invitations }).getByText(MISTYPED).count()).toBe(0)
      expect((await fetch(mistypedLink.replace('/admin/setup/', '/admin/api/setup/'))).status).toBe(404)

      // The editor comes in from the mail with a passkey, signs out, and back in with the passkey.
      const editorContext = await suite.browser.newContext({ viewport: { width: 390, height: 844 } })
      const editor = await withAuthenticator(editorContext)
      await editor.goto(await teamLinkFor(suite.server.config.MAIL_DIR, EDITOR, '/admin/setup'))
      await editor.getByText(copy.setup.intro('editor')).waitFor()
      await editor.getByText(EDITOR).waitFor() // the invitation's address, not asked
      await editor.getByRole('button', { name: copy.setup.create }).click()
      await nav(editor).waitFor()
      await editor.getByRole('button', { name: copy.signOut }).click()
      await editor.getByRole('button', { name: copy.signIn.passkey }).click()
      await nav(editor).waitFor()
      expect(await nav(editor).getByRole('link').allInnerTexts()).toEqual([
        copy.nav.overview,
        copy.nav.signups,
        copy.nav.imports,
        copy.nav.demand,
        copy.nav.breeds,
        copy.nav.campaigns,
        copy.nav.partners,
        copy.nav.deliverability,
        copy.nav.mail,
        copy.nav.account,
      ])

      // The viewer comes in without a passkey, signs out, and back in by e-mail link.
      const viewerContext = await suite.browser.newContext({ viewport: { width: 390, height: 844 } })
      const viewer = await viewerContext.newPage()
      await viewer.goto(await teamLinkFor(suite.server.config.MAIL_DIR, VIEWER, '/admin/setup'))
      await viewer.getByRole('button', { name: copy.setup.withoutPasskey }).click()
      await nav(viewer).waitFor()
      await viewer.getByRole('button', { name: copy.signOut }).click()
      await viewer.getByLabel(copy.signIn.emailLabel).fill(VIEWER)
      await viewer.getByRole('button', { name: copy.signIn.sendLink }).click()
      await viewer.getByRole('status').getByText(copy.signIn.linkSent).waitFor()
      const signInLink = await teamLinkFor(suite.server.config.MAIL_DIR, VIEWER, '/admin/sign-in')
      await viewer.goto(signInLink)
      // Opening the link signs nobody in (a mail scanner opens links too): the button does.
      expect(await pageSecrets(viewer)).toEqual({ stored: 0, cookie: '' })
      await viewer.getByRole('button', { name: 'Sign in' }).click()
      await nav(viewer).waitFor()
      expect(await nav(viewer).getByRole('link').allInnerTexts()).toEqual([
        copy.nav.overview,
        copy.nav.demand,
        copy.nav.breeds,
        copy.nav.campaigns,
        copy.nav.partners,
        copy.nav.deliverability,
        copy.nav.account,
      ])

      // The viewer: figures, never an address; the list and the export are refused.
      for (const view of [copy.nav.overview, copy.nav.demand, copy.nav.campaigns]) {
        await open(viewer, view)
        await viewer.waitForLoadState('networkidle')
        const text = await viewer.locator('main').innerText()
        for (const email of VISITORS) expect(text, view).not.toContain(email)
      }
      await viewer.getByRole('heading', { name: copy.campaigns.heading, exact: true }).waitFor()
      expect(await viewer.getByRole('form', { name: copy.campaigns.compose }).count()).toBe(0)
      expect(await fromPage(viewer, '/admin/api/export.csv')).toBe(403)
      expect(await fromPage(viewer, '/admin/api/signups')).toBe(403)
      await viewer.goto(`${site}/admin/signups`)
      await viewer.getByText(copy.notAllowed).waitFor()

      // The editor: a draft and a test send, but no sending (no button; the API says 403).
      await open(editor, copy.nav.campaigns)
      await editor.getByLabel(copy.campaigns.subject, { exact: true }).fill('From the editor')
      await editor.getByLabel(copy.campaigns.markdown).fill('Hello from the editor.')
      await editor.getByRole('button', { name: copy.campaigns.preview }).click()
      await editor.getByRole('region', { name: copy.campaigns.recipients(0) }).waitFor()
      await editor.getByLabel(copy.campaigns.testAddress).fill('editor@kennect.example')
      await editor.getByRole('button', { name: copy.campaigns.sendTest }).click()
      await editor.getByRole('status').getByText(copy.campaigns.testSent).waitFor()
      expect(await editor.getByRole('button', { name: copy.campaigns.send(0) }).count()).toBe(0)
      await editor.getByText(copy.campaigns.sendingIsOwners).waitFor()
      const [draft] = await suite.server.app.store.campaigns.list()
      expect(await fromPage(editor, `/admin/api/campaigns/${draft?.id}/send`, 'POST')).toBe(403)
      expect((await suite.server.app.store.campaigns.list())[0]?.status).toBe('draft')

      // The owner, signed in 20 minutes ago, sends: the server asks for a fresh sign-in, the passkey gives it.
      const ownerId = (await suite.server.app.store.team.operatorByEmail(OWNER))?.id ?? 0
      await ageSessions(suite.server, ownerId, 20)
      await open(owner, copy.nav.campaigns)
      await owner.getByLabel(copy.campaigns.subject, { exact: true }).fill('From the owner')
      await owner.getByLabel(copy.campaigns.markdown).fill('Hello from the team.')
      await owner.getByRole('checkbox', { name: copy.campaigns.includeUnconfirmed }).check()
      await owner.getByRole('button', { name: copy.campaigns.preview }).click()
      await clickAndConfirm(owner, owner.getByRole('button', { name: copy.campaigns.send(2) }))
      const again = owner.getByRole('dialog', { name: copy.reauth.heading })
      await again.waitFor()
      await again.getByRole('button', { name: copy.reauth.passkey }).click()
      await owner.getByRole('progressbar', { name: copy.campaigns.progressLabel('From the owner') }).waitFor()
      await again.waitFor({ state: 'detached' })

      // Disabling the editor ends their open session at their next request.
      await open(owner, copy.nav.team)
      await clickAndConfirm(owner, owner.getByRole('button', { name: copy.team.disableLabel(EDITOR) }))
      await owner
        .getByRole('region', { name: copy.team.operatorsCaption })
        .getByRole('row', { name: new RegExp(EDITOR) })
        .getByText(copy.team.disabled, { exact: true })
        .waitFor()
      await nav(editor).getByRole('link', { name: copy.nav.signups }).click() // its request is answered 401
      await editor.getByRole('heading', { name: copy.signIn.heading }).waitFor()

      // A write from another site, carrying the owner's cookie, changes nothing.
      const [cookie] = await ownerContext.cookies()
      expect(cookie).toMatchObject({ name: 'kennect_session', httpOnly: true, sameSite: 'Strict', path: '/admin' })
      const forged = (headers: Record<string, string>) =>
        fetch(`${site}/admin/api/operators`, {
          method: 'POST',
          headers: { cookie: `${cookie?.name}=${cookie?.value}`, ...headers },
          body: JSON.stringify({ email: 'mallory@evil.example', role: 'owner' }),
        })
      expect((await forged({ origin: 'https://evil.example', 'content-type': 'application/json' })).status).toBe(403)
      expect((await forged({ 'content-type': 'application/json' })).status).toBe(403) // no Origin at all
      expect((await forged({ origin: site, 'content-type': 'text/plain' })).status).toBe(415)
      expect((await suite.server.app.store.team.invitations()).map((i) => i.email)).not.toContain('mallory@evil.example')

      // The audit log names each step and who took it.
      await open(owner, copy.nav.audit)
      const log = owner.getByRole('region', { name: copy.audit.caption })
      await log.getByRole('row').nth(1).waitFor()
      const cells = await log
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((tr) => [...tr.children].map((cell) => (cell as HTMLElement).innerText.trim())))
      const lines2 = cells.map((line) => line.join(' | '))
      const said = (actor: string | undefined, action: string | undefined) =>
        cells.some(([, who, what]) => who === actor && what === action)
      for (const [actor, action] of [
        [OWNER, 'invitation accepted'],
        [OWNER, 'operator invited'],
        [EDITOR, 'invitation accepted'],
        [EDITOR, 'sign-out'],
        [EDITOR, 'sign-in'],
        [VIEWER, 'invitation accepted'],
        [VIEWER, 'sign-in link sent'],
        [VIEWER, 'sign-in'],
        [EDITOR, 'campaign test sent'],
        [OWNER, 'sign-in'],
        [OWNER, 'campaign sent'],
        [OWNER, 'operator disabled'],
      ])
        expect(said(actor, action), `${actor} ${action} in:\n${lines2.join('\n')}`).toBe(true)
      expect(lines2.join('\n')).not.toMatch(/ada@example\.com|grace@example\.com/)
      // The viewer's refused export left no line: nothing happened.
      expect(lines2.some((line) => line.includes('signups exported'))).toBe(false)

      // Nothing of a session is in reach of the pages' scripts.
      for (const page of [owner, editor, viewer]) expect(await pageSecrets(page)).toEqual({ stored: 0, cookie: '' })
      for (const context of [ownerContext, editorContext, viewerContext]) await context.close()
    },
  )
})

/**
 * A name Chromium resolves to the test server, as a LAN address would be reached: http at a name
 * other than localhost is no secure context (Chromium takes http://127.0.0.1 as one).
 */
const LAN_NAME = 'lan.test'

describe.skipIf(!chromiumAvailable).each(STORES)('the setup link over plain http at a LAN address on $kind', ({ kind, available }) => {
  const suite = useServerAndBrowser({}, { kind, available, chromiumArgs: [`--host-resolver-rules=MAP ${LAN_NAME} 127.0.0.1`] })

  it.skipIf(!available)('says before trying that passkeys need https or localhost, and shows the ways in that work there', async () => {
    const port = new URL(suite.server.url).port
    const lan = `http://${LAN_NAME}:${port}`
    const token = await inviteToken(suite.server, null, 'owner', 'setup')
    // An authenticator is there: what fails is the page's context, not the device.
    const context = await suite.browser.newContext()
    const owner = await withAuthenticator(context)
    await owner.goto(`${lan}/admin/setup/${token}`)
    await owner.getByRole('heading', { name: copy.setup.heading('setup') }).waitFor()
    expect(await owner.evaluate(() => window.isSecureContext)).toBe(false)
    const note = owner.getByRole('note')
    expect(await note.count()).toBe(1)
    const local = `http://localhost:${port}/admin/setup/${token}`
    expect(await note.innerText()).toBe(`${copy.setup.insecure.reason(lan)}\n\n${copy.setup.insecure.firstOwner(local)}`)
    // Nothing offers what cannot work here.
    expect(await owner.getByRole('button', { name: copy.setup.create }).count()).toBe(0)
    expect(await owner.getByRole('button', { name: copy.setup.withoutPasskey }).count()).toBe(0)

    // The link it names, opened at localhost, makes the passkey: the link was not spent.
    const local0 = await withAuthenticator(context)
    await local0.goto(local)
    expect(await local0.evaluate(() => window.isSecureContext)).toBe(true)
    // The page asks for its link first: the note would come with the heading, so no note is read after it.
    await local0.getByRole('heading', { name: copy.setup.heading('setup') }).waitFor()
    expect(await local0.getByRole('note').count()).toBe(0)
    await local0.getByLabel(copy.setup.email).fill('owner@kennect.example')
    await local0.getByRole('button', { name: copy.setup.create }).click()
    await nav(local0).waitFor()

    // An invitee at the LAN address comes in without a passkey, the way it names: e-mail links from then on.
    const invitee = await context.newPage()
    await invitee.goto(`${lan}/admin/setup/${await inviteToken(suite.server, 'viewer@kennect.example', 'viewer')}`)
    await invitee.getByRole('heading', { name: copy.setup.heading('invite') }).waitFor()
    expect(await invitee.getByRole('note').innerText()).toBe(`${copy.setup.insecure.reason(lan)}\n\n${copy.setup.insecure.invite}`)
    expect(await invitee.getByRole('button', { name: copy.setup.create }).count()).toBe(0)
    await invitee.getByRole('button', { name: copy.setup.withoutPasskey }).click()
    await nav(invitee).waitFor()
    expect(invitee.url()).toBe(`${lan}/admin`)
    await context.close()
  })
})
