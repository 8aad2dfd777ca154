// The visitor's own page, reached as a person reaches it: a join, the confirmation mail at a real
// SMTP server, its link opened in Chromium. Confirm, the profile, the download, stopping e-mails
// and deleting each do what they say, with JavaScript on and off (the page needs none).
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailCopy } from '../../server/mail/content'
import { pageContent } from '../../web/content'
import { englishVisitorContent as copy, visitorContent } from '../../web/visitor/content'
import { axeOn } from '../support/axe'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { visit } from '../support/page'
import { startSmtp, type TestSmtp } from '../support/smtp'
import { LOCALES, type Locale } from '../../contract/locales'
import { breedName } from '../../server/breeds/catalogue'
import { publicFigure } from '../../contract/public-figures'
import { figureKey } from '../../server/growth/public-figures'
import { joinWithLink } from '../support/page-links'
import { profileOf } from '../support/profile'
import { row } from '../support/rows'

let smtp: TestSmtp
const ADMIN_TOKEN = 'visitor-page-admin-token-0123456789'

beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(() => smtp?.stop())

describe.skipIf(!chromiumAvailable)("the visitor's page", () => {
  const suite = useServerAndBrowser({
    get SMTP_URL() {
      return smtp.url
    },
    MAIL_RATE_PER_SECOND: '0',
    ADMIN_TOKEN: ADMIN_TOKEN,
  })

  /** Joins with the address and answers the link of the mail it gets. */
  async function linkFor(email: string): Promise<string> {
    const before = smtp.received.length
    const answer = await fetch(`${suite.server.url}/rest/v1/waitlist`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    })
    expect(answer.status).toBe(201)
    const mails = await smtp.waitFor(before + 1)
    const mail = mails.find((m) => m.to === email)
    return /(https?:\/\/\S+\/me\/[A-Za-z0-9_-]{43})(?=\s)/.exec(mail?.parsed.text ?? '')?.[1] ?? ''
  }

  const signUp = async (email: string) => (await suite.server.app.store.list({ limit: 1, search: email }))[0]
  // The page's notice is its first status region (the invite card has one of its own for "Link copied").
  const notice = (page: Page) => page.getByRole('status').first()

  it.each([true, false])('does what each button says, JavaScript %s', async (javaScriptEnabled) => {
    const email = `story-${javaScriptEnabled ? 'js' : 'nojs'}@example.com`
    const link = await linkFor(email)
    const { page, problems } = await visit(suite.browser, link, { javaScriptEnabled, acceptDownloads: true })
    await page.getByRole('heading', { level: 1, name: copy.heading }).waitFor()
    expect(await page.getByText(email, { exact: false }).first().isVisible()).toBe(true)

    // Confirm: a button, and the page then says so.
    await page.getByRole('button', { name: copy.confirm.button }).click()
    await page.waitForURL(/\?done=confirmed$/)
    expect(await notice(page).innerText()).toBe(copy.notices.confirmed)
    expect(await page.getByRole('button', { name: copy.confirm.button }).count()).toBe(0)
    expect((await signUp(email))?.confirmed_at).toMatch(/^\d{4}-/)

    // Tell us about you: kept, and shown again as chosen.
    await page.getByRole('radio', { name: copy.profile.roles.breeder }).check()
    await page.getByRole('combobox', { name: copy.profile.breedLabel(1), exact: true }).fill('Labrador Retriever')
    await page.getByRole('combobox', { name: copy.profile.breedLabel(2), exact: true }).fill('Our own Lab cross')
    await page.getByRole('combobox', { name: copy.profile.country }).selectOption({ label: 'United Kingdom' })
    // The breeder's questions: the side, the health tests done (folded until asked for), the club, the litters.
    await page.getByRole('combobox', { name: copy.profile.sideLabel(1) }).selectOption({ label: copy.profile.sides.both })
    await page.getByText(copy.profile.tests).first().click()
    await page
      .getByRole('group', { name: copy.profile.testsLabel(1) })
      .getByRole('checkbox', { name: copy.profile.testNames.hips })
      .check()
    await page
      .getByRole('group', { name: copy.profile.testsLabel(1) })
      .getByRole('checkbox', { name: copy.profile.testNames.eyes })
      .check()
    await page.getByRole('textbox', { name: copy.profile.otherTestsLabel(1) }).fill('EIC clear')
    await page.getByRole('combobox', { name: copy.profile.club }).selectOption({ label: `KC · ${copy.profile.clubCountry('GB')}` })
    await page.getByRole('radio', { name: copy.profile.littersMore }).check()
    await page.getByRole('button', { name: copy.profile.save, exact: true }).click()
    await page.waitForURL(/\?done=saved$/)
    expect(await notice(page).innerText()).toBe(copy.notices.saved)
    expect(await page.getByRole('radio', { name: copy.profile.roles.breeder }).isChecked()).toBe(true)
    expect(await page.getByRole('combobox', { name: copy.profile.breedLabel(2), exact: true }).inputValue()).toBe('Our own Lab cross')
    expect(await page.getByRole('combobox', { name: copy.profile.country }).inputValue()).toBe('GB')
    expect(await signUp(email)).toMatchObject({ role: 'breeder', breeds: ['Labrador Retriever', 'Our own Lab cross'], country: 'GB' })
    expect(await page.getByRole('combobox', { name: copy.profile.sideLabel(1) }).inputValue()).toBe('both')
    expect(await page.getByRole('checkbox', { name: copy.profile.testNames.eyes }).first().isChecked()).toBe(true)
    expect(await page.getByRole('combobox', { name: copy.profile.club }).inputValue()).toBe('KC')
    expect(await page.getByRole('radio', { name: copy.profile.littersMore }).isChecked()).toBe(true)
    const kept = (await suite.server.app.store.visitors.data((await signUp(email))?.id ?? 0)).profile
    expect(kept).toMatchObject({
      club: 'KC',
      litters: 3,
      breeds: [
        { name: 'Labrador Retriever', breed: 'labrador-retriever', side: 'both', tests: ['hips', 'eyes'], otherTests: 'EIC clear' },
        { name: 'Our own Lab cross', breed: null, side: null, tests: [] },
      ],
    })

    // Download: everything kept about the address, as JSON.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: copy.data.button }).click()])
    const data = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
      signup: { email: string; role: string }
      mails: { kind: string }[]
    }
    expect(data.signup).toMatchObject({ email, role: 'breeder', country: 'GB' })
    expect(data.mails.map((m) => m.kind)).toEqual(['confirm'])

    // Stop e-mails, and take it back.
    await page.getByRole('button', { name: copy.emails.stop }).click()
    await page.waitForURL(/\?done=unsubscribed$/)
    expect(await notice(page).innerText()).toBe(copy.notices.unsubscribed)
    expect((await signUp(email))?.unsubscribed_at).toMatch(/^\d{4}-/)
    await page.getByRole('button', { name: copy.emails.restart }).click()
    await page.waitForURL(/\?done=resubscribed$/)
    expect((await signUp(email))?.unsubscribed_at).toBeNull()

    // Delete: a second step, then nothing is left, and the link shows nothing.
    await page.getByRole('button', { name: copy.remove.button }).click()
    await page.getByRole('heading', { level: 1, name: copy.remove.confirmHeading }).waitFor()
    expect(await signUp(email)).toBeDefined() // the first step deletes nothing
    await page.getByRole('button', { name: copy.remove.confirm }).click()
    await page.getByRole('heading', { level: 1, name: copy.gone.deleted.heading }).waitFor()
    expect(await signUp(email)).toBeUndefined()
    expect(await suite.server.app.store.outbox.counts()).toMatchObject({ queued: 0, sending: 0 })
    const again = await page.goto(link)
    expect(again?.status()).toBe(404)
    await page.getByRole('heading', { level: 1, name: copy.gone['not-found'].heading }).waitFor()
    expect(problems.filter((p) => !p.includes('404'))).toEqual([])
    await page.context().close()
  })

  it.each([
    { width: 390, colorScheme: 'light' },
    { width: 1280, colorScheme: 'light' },
    { width: 390, colorScheme: 'dark' },
    { width: 1280, colorScheme: 'dark' },
  ] as const)('finds no axe violation at $width px, $colorScheme', async ({ width, colorScheme }) => {
    const link = await linkFor(`axe-${width}-${colorScheme}@example.com`)
    const { page } = await visit(suite.browser, `${link}?done=saved`, { viewport: { width, height: 900 }, colorScheme })
    const violations = async () =>
      (await axeOn(page).analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    expect(await violations()).toEqual([])
    await page.getByRole('button', { name: copy.remove.button }).click()
    await page.getByRole('heading', { level: 1, name: copy.remove.confirmHeading }).waitFor()
    expect(await violations()).toEqual([])
    await page.goto(`${suite.server.url}/me/${'x'.repeat(43)}`)
    expect(await violations()).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    await page.context().close()
  })

  it("puts the chosen country's kennel club first as soon as the country is chosen, with JavaScript; without it once saved", async () => {
    const link = await linkFor('clubs@example.com')
    const club = (page: Page) => page.getByRole('combobox', { name: copy.profile.club })
    const country = (page: Page) => page.getByRole('combobox', { name: copy.profile.country })
    const clubs = (page: Page) =>
      club(page)
        .locator('option')
        .evaluateAll((options) => options.map((o) => o.textContent))
    const [uk, germany, poland, italy] = [
      `KC · ${copy.profile.clubCountry('GB')}`,
      `VDH · ${copy.profile.clubCountry('DE')}`,
      `ZKwP · ${copy.profile.clubCountry('PL')}`,
      `ENCI · ${copy.profile.clubCountry('IT')}`,
    ]
    for (const javaScriptEnabled of [true, false]) {
      const { page } = await visit(suite.browser, link, { javaScriptEnabled })
      const before = await clubs(page)
      expect(before.slice(0, 3)).toEqual([copy.profile.noClub, uk, germany])
      await club(page).selectOption({ label: germany })
      await country(page).selectOption({ label: 'Poland' })
      if (javaScriptEnabled) {
        // At once, and the club chosen stays chosen.
        expect(await clubs(page)).toEqual([copy.profile.noClub, poland, ...before.slice(1).filter((name) => name !== poland)])
        expect(await club(page).inputValue()).toBe('VDH')
        await country(page).selectOption({ label: 'Italy' })
        expect((await clubs(page))[1]).toBe(italy)
        await country(page).selectOption({ label: copy.profile.noCountry })
        expect(await clubs(page)).toEqual(before)
      } else {
        expect(await clubs(page)).toEqual(before)
        await page.getByRole('button', { name: copy.profile.save, exact: true }).click()
        await page.waitForURL(/\?done=saved$/)
        expect((await clubs(page))[1]).toBe(poland)
        expect(await club(page).inputValue()).toBe('VDH')
      }
      await page.context().close()
    }
  })

  it('draws its fields dark in the dark scheme, as the rest of the page', async () => {
    const link = await linkFor('dark-fields@example.com')
    const { page } = await visit(suite.browser, link, { colorScheme: 'dark' })
    const look = (name: string, role: 'textbox' | 'combobox') =>
      page.getByRole(role, { name, exact: true }).evaluate((field) => {
        const style = getComputedStyle(field)
        return { background: style.backgroundColor, text: style.color }
      })
    const select = await look(copy.profile.country, 'combobox')
    expect(select.background).not.toBe('rgb(255, 255, 255)')
    expect(await look(copy.profile.breedLabel(1), 'combobox')).toEqual(select) // a text field with suggestions
    await page.getByText(copy.profile.tests).first().click()
    expect(await look(copy.profile.otherTestsLabel(1), 'textbox')).toEqual(select)
    await page.context().close()
  })

  it('speaks German to a German sign-up, mail and page, and French from the moment French is chosen there', async () => {
    const email = 'greta.de@example.com'
    const german = pageContent('de')
    const before = smtp.received.length
    // The German page's form, with its German words.
    const { page } = await visit(suite.browser, `${suite.server.url}/de/`)
    await page.getByRole('heading', { level: 1, name: german.hero.headline }).waitFor()
    await page.getByRole('textbox', { name: german.waitlist.emailLabel }).fill(email)
    await page.getByRole('button', { name: german.waitlist.submit, exact: true }).click()
    await page
      .getByRole('region', { name: german.toaster.regionLabel.replace('{hotkey}', 'F8') })
      .getByText(german.waitlist.success.title)
      .waitFor()
    expect((await signUp(email))?.locale).toBe('de')

    // The confirmation mail, in German.
    const mail = (await smtp.waitFor(before + 1)).find((m) => m.to === email)
    expect(mail?.subject).toBe(mailCopy('Kennect', 'de').confirmation.subject)
    expect(mail?.parsed.html).toContain('<html lang="de">')
    expect(mail?.parsed.html).toContain(mailCopy('Kennect', 'de').confirmation.button)
    const link = /(https?:\/\/\S+\/me\/[A-Za-z0-9_-]{43})(?=\s)/.exec(mail?.parsed.text ?? '')?.[1] ?? ''

    // The visitor's page, in German: confirm and say the country in German words.
    const de = visitorContent('de')
    await page.goto(link)
    expect(await page.getAttribute('html', 'lang')).toBe('de')
    await page.getByRole('heading', { level: 1, name: de.heading }).waitFor()
    await page.getByRole('button', { name: de.confirm.button }).click()
    await page.waitForURL(/\?done=confirmed$/)
    await page.getByRole('combobox', { name: de.profile.country }).selectOption({ label: 'Österreich' })
    await page.getByRole('button', { name: de.profile.save, exact: true }).click()
    await page.waitForURL(/\?done=saved$/)

    // French, chosen on the page: the page answers in French, and the choice is kept.
    const fr = visitorContent('fr')
    const choices = page.getByRole('region', { name: de.language.heading })
    expect(await choices.getByRole('button', { name: 'Deutsch' }).getAttribute('aria-pressed')).toBe('true')
    await choices.getByRole('button', { name: 'Français' }).click()
    await page.waitForURL(/\?done=language$/)
    expect(await page.getAttribute('html', 'lang')).toBe('fr')
    await page.getByRole('heading', { level: 1, name: fr.heading }).waitFor()
    expect(await notice(page).innerText()).toBe(fr.notices.language)
    expect((await signUp(email))?.locale).toBe('fr')

    // The next mail, a campaign to Austria written in English, German and French, comes in French.
    const sent = await fetch(`${suite.server.url}/admin/api/campaigns`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        subject: { en: 'Kennect opens in Austria', de: 'Kennect startet in Österreich', fr: 'Kennect ouvre en Autriche' },
        markdown: { en: 'It is here.', de: 'Es ist so weit.', fr: 'C’est le moment.' },
        segment: { countries: ['AT'] },
        send: true,
      }),
    })
    expect(sent.status).toBe(201)
    const campaign = await smtp.waitFor(before + 2)
    const french = campaign.filter((m) => m.to === email).at(-1)
    expect(french?.subject).toBe('Kennect ouvre en Autriche')
    expect(french?.parsed.text).toContain('C’est le moment.')
    expect(french?.parsed.html).toContain('<html lang="fr">')
    await page.context().close()
  })
})

describe.skipIf(!chromiumAvailable)("the breeder's questions in six languages", () => {
  const suite = useServerAndBrowser({ MAIL_RATE_PER_SECOND: '0' })
  const NAMES: Record<Locale, string> = {
    en: 'GSD',
    de: 'Deutscher Schäferhund',
    fr: 'Berger Allemand',
    es: 'Pastor Alemán',
    it: 'Pastore Tedesco',
    pl: 'Owczarek niemiecki',
  }

  it.each(LOCALES.map((locale, i) => [locale, i % 2 === 0] as const))(
    'lands the name a %s visitor types on one breed, and shows its meter in their words (JavaScript %s)',
    async (locale, javaScriptEnabled) => {
      const { store } = suite.server.app
      // Ten more dams of the breed in France for each language: the public sees them once their offset is passed.
      for (let i = 0; i < 10; i += 1) {
        const email = `dam-${locale}-${i}@example.com`
        await store.add({ ...row(email), locale })
        const id = (await store.list({ limit: 1, search: email }))[0]?.id ?? 0
        await store.visitors.confirm(id)
        await store.visitors.saveProfile(id, profileOf({ role: 'breeder', breeds: [{ name: 'GSD', side: 'dam' }], country: 'FR' }))
      }
      suite.server.app.breedMeters.changed()
      const { token } = await joinWithLink(suite.server, `gsd-${locale}@example.com`, { locale })
      const words = visitorContent(locale)
      const { page } = await visit(suite.browser, `${suite.server.url}/me/${token}`, { javaScriptEnabled })
      await page.getByRole('button', { name: words.confirm.button }).click()
      await page.waitForURL(/\?done=confirmed$/)
      await page.getByRole('combobox', { name: words.profile.breedLabel(1), exact: true }).fill(NAMES[locale])
      await page.getByRole('combobox', { name: words.profile.sideLabel(1) }).selectOption('stud')
      await page.getByRole('combobox', { name: words.profile.country }).selectOption('FR')
      await page.getByRole('button', { name: words.profile.save, exact: true }).click()
      await page.waitForURL(/\?done=saved$/)
      const id = (await store.list({ limit: 1, search: `gsd-${locale}@` }))[0]?.id ?? 0
      expect((await store.visitors.data(id)).profile.breeds).toMatchObject([
        { name: NAMES[locale], breed: 'german-shepherd-dog', side: 'stud' },
      ])
      // Their breed's meter in France, in their language, as the public sees it (docs/public-figures.md):
      // the few studs not shown, the dams as their band once the figure's offset is taken off.
      const name = breedName('german-shepherd-dog', locale)
      const counted = (await store.breeds.counts()).find((c) => c.breed === 'german-shepherd-dog' && c.country === 'FR')
      const offsets = await suite.server.app.launch.figures.offsets()
      const shown = (side: 'studs' | 'dams') =>
        publicFigure(counted?.[side] ?? 0, offsets(figureKey.breed('german-shepherd-dog', 'FR', side)))
      expect(shown('studs')).toBeNull()
      const sentence = words.launch.breedMeter({
        breed: 'german-shepherd-dog',
        name,
        studs: null,
        dams: shown('dams'),
        target: { studs: 20, dams: 20 },
        ready: false,
      })
      suite.server.app.breedMeters.changed()
      await page.reload()
      expect(await page.getByText(sentence, { exact: true }).isVisible()).toBe(true)
      await page.close()
    },
  )
})
