// Each operator's own language (issue 52, item 2; docs/decisions/027-the-back-office-in-six-languages.md),
// over HTTP on both stores: kept with the operator and theirs alone (PATCH and GET /admin/api/me),
// anything but the six refused with nothing changed; an invitation mailed in the language it names
// (the inviter's unless said), its invitee starting in it; the first owner in their browser's
// language; a sign-in link mailed, and its page shown, in the reader's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SessionInfo } from '../../contract/team'
import { adminTranslator } from '../../locales/index'
import { firstRecipient, localMails } from '../support/mailbox'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { asOperator, inviteToken, joinTeam, teamLinkFor, type TestOperator } from '../support/team'

const ADMIN_TOKEN = 'operator-languages-admin-token-0123456789'

describe.each(STORES)('each operator’s language on $kind', ({ kind, available }) => {
  let server: TestServer
  let owner: TestOperator
  let editor: TestOperator
  beforeAll(async () => {
    if (!available) return
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' }, kind)
    owner = await joinTeam(server, 'owner@kennect.example', 'owner')
    editor = await joinTeam(server, 'editor@kennect.example', 'editor')
  })
  afterAll(() => server?.close())

  const me = async (operator: TestOperator) => ((await (await asOperator(server, operator)('/me')).json()) as SessionInfo).locale
  /** The newest mail to an address, once it is written. */
  const mailTo = async (email: string) => {
    for (let i = 0; i < 300; i++) {
      const mail = (await localMails(server.config.MAIL_DIR)).reverse().find((m) => firstRecipient(m) === email)
      if (mail) return mail
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`no mail to ${email}`)
  }

  it.skipIf(!available)('keeps each operator’s language as theirs alone, and refuses any other', async () => {
    expect(await me(owner)).toBe('en')
    const changed = await asOperator(server, owner)('/me', { method: 'PATCH', body: { locale: 'pl' } })
    expect(changed.status).toBe(200)
    expect(((await changed.json()) as SessionInfo).locale).toBe('pl')
    expect(await me(owner)).toBe('pl')
    expect(await me(editor)).toBe('en') // a teammate's stays theirs
    for (const body of [{ locale: 'xx' }, { locale: 'PL' }, { locale: 'pl-PL' }, {}, { locale: 'de', theme: 'dark' }, { locale: 3 }]) {
      const refused = await asOperator(server, owner)('/me', { method: 'PATCH', body })
      expect(refused.status, JSON.stringify(body)).toBe(400)
    }
    expect(await me(owner)).toBe('pl')
    // A token has no language of its own to change.
    const token = await fetch(`${server.url}/admin/api/me`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ locale: 'de' }),
    })
    expect(token.status).toBe(403)
    expect((await server.app.store.team.operatorByEmail(owner.email))?.locale).toBe('pl')
  })

  it.skipIf(!available)('mails an invitation in the language it names, or the inviter’s, and the invitee starts in it', async () => {
    const api = asOperator(server, owner)
    expect((await api('/me', { method: 'PATCH', body: { locale: 'pl' } })).status).toBe(200)
    expect(
      (await api('/operators', { method: 'POST', body: { email: 'dora@kennect.example', role: 'editor', locale: 'de' } })).status,
    ).toBe(201)
    expect((await api('/operators', { method: 'POST', body: { email: 'piotr@kennect.example', role: 'viewer' } })).status).toBe(201)
    expect((await api('/operators', { method: 'POST', body: { email: 'x@kennect.example', role: 'viewer', locale: 'xx' } })).status).toBe(
      400,
    )
    for (const [email, locale] of [
      ['dora@kennect.example', 'de'],
      ['piotr@kennect.example', 'pl'],
    ] as const) {
      const mail = await mailTo(email)
      expect(mail.subject).toBe(adminTranslator(locale, { product: 'Kennect' })('mails.invite.subject'))
      expect(typeof mail.html === 'string' ? mail.html : '').toContain(`<html lang="${locale}">`)
      const link = await teamLinkFor(server.config.MAIL_DIR, email, '/admin/setup')
      const joined = await fetch(`${server.url}/admin/api/setup/${link.split('/').pop()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url, 'accept-language': 'fr-FR,fr;q=0.9' },
        body: JSON.stringify({ name: email.split('@')[0] }),
      })
      expect(joined.status).toBe(201)
      expect(((await joined.json()) as SessionInfo).locale, email).toBe(locale) // the invitation's, not the browser's
    }
  })

  it.skipIf(!available)(
    'starts an operator whose link names no language (the first owner’s) in their browser’s, and mails a sign-in link in the operator’s',
    async () => {
      // The first start's setup link and the command line's invitations name no language: the
      // browser's first one of ours is taken (the setup link itself needs a passkey: tests/browser/team.test.ts).
      const token = await inviteToken(server, 'italo@kennect.example', 'viewer', 'invite', null)
      const italian = await fetch(`${server.url}/admin/api/setup/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url, 'accept-language': 'en-GB;q=0.5, it-CH, de;q=0.8' },
        body: JSON.stringify({ name: 'Italo' }),
      })
      expect(italian.status).toBe(201)
      expect(((await italian.json()) as SessionInfo).locale).toBe('it')

      // A sign-in link: the mail in the operator's language (Polish), its page in the reader's browser's.
      expect(
        (
          await fetch(`${server.url}/admin/api/session/link`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: server.url },
            body: JSON.stringify({ email: owner.email }),
          })
        ).status,
      ).toBe(202)
      const mail = await mailTo(owner.email)
      expect(mail.subject).toBe(adminTranslator('pl', { product: 'Kennect' })('mails.signIn.subject'))
      const link = await teamLinkFor(server.config.MAIL_DIR, owner.email, '/admin/sign-in')
      const page = await (
        await fetch(link.replace(/^https?:\/\/[^/]+/, server.url), { headers: { 'accept-language': 'es-ES,es;q=0.9' } })
      ).text()
      expect(page).toContain('<html lang="es">')
      expect(page).toContain(adminTranslator('es', { product: 'Kennect' })('signInPage.button'))
    },
  )
})
