// The back office in each operator's own language (issue 52, items 1 to 3), in Chromium: a Polish
// owner sees the Overview, Campaigns (the composer counting 1, 2, 5 and 22 recipients), Deliverability,
// Team, Breeds and Partners in Polish, with Polish plurals and dates and each breed by its Polish
// name, while a German teammate sees German at the same time; each page loads its operator's
// catalogue and no other; the language menu changes one operator's language alone; an invitation
// goes out in the language chosen for it, and the invitee's passkey, left unnamed, is named in it.
import type { Page, Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { Locale } from '../../contract/locales'
import { ownName } from '../../web/admin/language-menu'
import { adminContentFor } from '../support/admin-words'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { firstRecipient, localMails } from '../support/mailbox'
import { watchConsole } from '../support/page'
import { profileOf } from '../support/profile'
import { row } from '../support/rows'
import { asOperator, joinTeam, signInContext, teamLinkFor, withAuthenticator } from '../support/team'
import { adminTranslator } from '../../locales/index'

/** 22 confirmed breeders: 1 in Austria, 2 in Switzerland, 5 in France, 14 in Germany. */
const PEOPLE = [
  ['AT', 1],
  ['CH', 2],
  ['FR', 5],
  ['DE', 14],
] as const

describe.skipIf(!chromiumAvailable)('the back office in each operator’s language', () => {
  const suite = useServerAndBrowser(
    { MAIL_RATE_PER_SECOND: '0' },
    {
      seed: async (server) => {
        for (const [country, n] of PEOPLE)
          for (let i = 0; i < n; i++) {
            const email = `${country.toLowerCase()}-${i}@example.com`
            await server.app.store.add(row(email))
            const id = (await server.app.store.list({ limit: 1, search: email }))[0]?.id ?? 0
            await server.app.store.visitors.confirm(id)
            await server.app.store.visitors.saveProfile(
              id,
              profileOf({ role: 'breeder', breeds: [{ name: 'German Shepherd', side: 'dam' }], country }),
            )
          }
      },
    },
  )

  /** An operator of that language, signed in in a context of their own; `catalogues` the language chunks their page loaded. */
  async function operatorIn(email: string, role: 'owner' | 'editor', locale: Locale) {
    const operator = await joinTeam(suite.server, email, role)
    expect((await asOperator(suite.server, operator)('/me', { method: 'PATCH', body: { locale } })).status).toBe(200)
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Europe/Warsaw' })
    await signInContext(context, suite.server, operator)
    const page = await context.newPage()
    const catalogues: string[] = []
    page.on('request', (request: Request) => {
      const chunk = /\/assets\/(en|de|fr|es|it|pl)-[\w-]+\.js$/.exec(new URL(request.url()).pathname)?.[1]
      if (chunk) catalogues.push(chunk)
    })
    return { operator, context, page, catalogues, copy: adminContentFor(locale) }
  }
  const nav = (page: Page, copy: ReturnType<typeof adminContentFor>) => page.getByRole('navigation', { name: copy.nav.label })
  const open = async (page: Page, copy: ReturnType<typeof adminContentFor>, view: string) => {
    await nav(page, copy).getByRole('link', { name: view, exact: true }).click()
    await page.getByRole('main', { name: view }).waitFor()
  }

  it('shows a Polish owner Polish and a German teammate German at the same time, each page with its language alone', async () => {
    const polish = await operatorIn('wanda@kennect.example', 'owner', 'pl')
    const german = await operatorIn('dora@kennect.example', 'editor', 'de')
    const problems = watchConsole(polish.page)
    try {
      for (const [who, locale] of [
        [polish, 'pl'],
        [german, 'de'],
      ] as const) {
        await who.page.goto(`${suite.server.url}/admin`)
        await nav(who.page, who.copy).waitFor()
        expect(await who.page.evaluate(() => document.documentElement.lang), locale).toBe(locale)
        expect(who.catalogues, locale).toEqual([locale])
        // Overview: the day of the sign-ups as the language writes it, in the table and on the chart's axis.
        const day = who.copy.format.day(new Date().toISOString())
        await who.page.getByRole('table', { name: who.copy.perDayTable }).getByText(day, { exact: true }).waitFor()
        expect(await who.page.getByRole('main').getByText(who.copy.total, { exact: true }).count(), locale).toBeGreaterThan(0)
      }
      const { page, copy } = polish
      expect(copy.nav.breeds).not.toBe(adminContentFor('en').nav.breeds)

      // Campaigns: the composer counts in Polish plurals (1 odbiorca, 2 odbiorcy, 5 odbiorców, 22 odbiorcy).
      await open(page, copy, copy.nav.campaigns)
      await page.getByLabel(copy.campaigns.subject, { exact: true }).fill('Start')
      const counted: string[] = []
      for (const [countries, n] of [
        ['AT', 1],
        ['CH', 2],
        ['FR', 5],
        ['', 22],
      ] as const) {
        await page.getByLabel(copy.campaigns.countries, { exact: true }).fill(countries)
        await page.getByRole('button', { name: copy.campaigns.preview }).click()
        await page.getByRole('region', { name: copy.campaigns.recipients(n) }).waitFor()
        await page.getByRole('button', { name: copy.campaigns.send(n) }).waitFor()
        counted.push(copy.campaigns.recipients(n))
      }
      expect(counted).toEqual(['1 odbiorca', '2 odbiorcy', '5 odbiorców', '22 odbiorcy'])

      // Deliverability, Team and Breeds: their headings, a word of each, in Polish.
      await open(page, copy, copy.nav.deliverability)
      await page.getByRole('heading', { name: copy.deliverability.rateHeading }).waitFor()
      await open(page, copy, copy.nav.team)
      await page.getByRole('heading', { name: copy.team.invite }).waitFor()
      // The list of operators arrives after the heading: wait for a cell rather than count at once.
      await page.getByRole('cell', { name: copy.team.active }).first().waitFor()
      await open(page, copy, copy.nav.breeds)
      const table = page.getByRole('table', { name: copy.breeds.caption })
      await table.getByRole('columnheader', { name: copy.breeds.columns.studs, exact: true }).waitFor()
      // The breed by the catalogue's Polish name, in the table and the picture, and never its English one.
      await table.getByRole('rowheader', { name: 'Owczarek niemiecki', exact: true }).first().waitFor()
      expect(await page.getByRole('main').getByText('German Shepherd Dog').count()).toBe(0)

      // Partners: a club's meter names its breed in Polish too.
      const club = await asOperator(suite.server, polish.operator)('/partners', {
        method: 'POST',
        body: { name: 'Klub Owczarka', origins: ['https://klub.example'], breed: 'german-shepherd-dog', country: 'DE' },
      })
      expect(club.status).toBe(201)
      await open(page, copy, copy.nav.partners)
      await page.getByText(copy.partners.meterOf('Owczarek niemiecki', 'DE'), { exact: false }).waitFor()
      // Its form to change it holds the breed by that name too, not by its id.
      await page.getByText(copy.partners.details, { exact: true }).click()
      const change = page.getByRole('form', { name: `${copy.partners.edit}: Klub Owczarka` })
      expect(await change.getByRole('combobox', { name: copy.partners.breed }).inputValue()).toBe('Owczarek niemiecki')

      // The German teammate's page is German still, after the owner's work.
      await german.page.reload()
      await nav(german.page, german.copy).getByRole('link', { name: german.copy.nav.breeds, exact: true }).waitFor()
      expect(problems).toEqual([])
    } finally {
      await polish.context.close()
      await german.context.close()
    }
  })

  it('changes one operator’s language from the header’s menu, each named in itself, and leaves a teammate’s', async () => {
    const editor = await operatorIn('ella@kennect.example', 'editor', 'de')
    const teammate = await operatorIn('tom@kennect.example', 'editor', 'pl')
    try {
      await editor.page.goto(`${suite.server.url}/admin`)
      const menu = editor.page.getByRole('combobox', { name: editor.copy.account.language })
      await menu.waitFor()
      expect(await menu.locator('option').allInnerTexts()).toEqual(['English', 'Deutsch', 'Français', 'Español', 'Italiano', 'Polski'])
      expect(['en', 'de', 'fr', 'es', 'it', 'pl'].map((l) => ownName(l as Locale))).toEqual(await menu.locator('option').allInnerTexts())
      // By keyboard: focus the menu and pass over French to Spanish and back, which changes nothing
      // yet (Chromium fires a closed select's change at each arrow key); then the button.
      await menu.focus()
      await editor.page.keyboard.press('ArrowDown') // Deutsch -> Français
      await editor.page.keyboard.press('ArrowDown') // -> Español
      await editor.page.keyboard.press('ArrowUp') // -> Français
      expect(await menu.inputValue()).toBe('fr')
      expect(await editor.page.evaluate(() => document.documentElement.lang)).toBe('de')
      expect(((await (await asOperator(suite.server, editor.operator)('/me')).json()) as { locale: string }).locale).toBe('de')
      await editor.page.keyboard.press('Tab')
      await expect.poll(() => editor.page.evaluate(() => document.activeElement?.textContent)).toBe(editor.copy.account.languageChange)
      await editor.page.keyboard.press('Enter')
      await editor.page.waitForFunction(() => document.documentElement.lang === 'fr')
      const french = adminContentFor('fr')
      await nav(editor.page, french).getByRole('link', { name: french.nav.breeds, exact: true }).waitFor()
      expect(((await (await asOperator(suite.server, editor.operator)('/me')).json()) as { locale: string }).locale).toBe('fr')
      expect(((await (await asOperator(suite.server, teammate.operator)('/me')).json()) as { locale: string }).locale).toBe('pl')
    } finally {
      await editor.context.close()
      await teammate.context.close()
    }
  })

  it('invites in the language chosen for the invitation, and names the invitee’s unnamed passkey in it', async () => {
    const owner = await operatorIn('olga@kennect.example', 'owner', 'pl')
    // Her browser asks for English, whatever the machine's default.
    const inviteeContext = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    try {
      const { page, copy } = owner
      await page.goto(`${suite.server.url}/admin/team`)
      await page.getByLabel(copy.team.inviteEmail).fill('francoise@kennect.example')
      // The inviter's language unless chosen: Polish, changed to French.
      const language = page.getByLabel(copy.team.inviteLanguage)
      expect(await language.inputValue()).toBe('pl')
      await language.selectOption('fr')
      await page.getByRole('button', { name: copy.team.sendInvite }).click()
      await page.getByText(copy.team.invited('francoise@kennect.example')).waitFor()
      let subject: string | undefined
      for (let i = 0; i < 200 && subject === undefined; i++) {
        subject = (await localMails(suite.server.config.MAIL_DIR)).find(
          (mail) => firstRecipient(mail) === 'francoise@kennect.example',
        )?.subject
        if (subject === undefined) await page.waitForTimeout(50)
      }
      expect(subject).toBe(adminTranslator('fr', { product: 'Kennect' })('mails.invite.subject'))
      // The invitee creates a passkey without naming it: it is named in her language, not in English.
      const french = adminContentFor('fr')
      const invitee = await withAuthenticator(inviteeContext)
      const linkAsks: string[] = []
      invitee.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/admin/api/setup/') && request.method() === 'GET') linkAsks.push(request.url())
      })
      await invitee.goto(await teamLinkFor(suite.server.config.MAIL_DIR, 'francoise@kennect.example', '/admin/setup'))
      // Her page speaks the invitation's language, though her browser asks for English.
      await invitee.getByRole('button', { name: french.setup.create }).click()
      // The page's start and its view asked for the link once between them.
      expect(linkAsks).toHaveLength(1)
      await open(invitee, french, french.nav.account)
      const unnamed = adminTranslator('fr')('account.unnamedPasskey')
      expect(unnamed).not.toBe(adminTranslator('en')('account.unnamedPasskey'))
      await invitee.getByRole('rowheader', { name: unnamed, exact: true }).waitFor()
      // A refusal in the operator's language too: the address of someone on the team already.
      await page.getByLabel(copy.team.inviteEmail).fill(owner.operator.email)
      await page.getByRole('button', { name: copy.team.sendInvite }).click()
      await page.getByText(copy.refusals.operator_exists, { exact: true }).waitFor()
      // And the page's title.
      expect(await page.title()).toBe(adminTranslator('pl', { product: 'Kennect' })('pageTitle'))
    } finally {
      await owner.context.close()
      await inviteeContext.close()
    }
  })
})
