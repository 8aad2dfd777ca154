// The Partners view of the admin page, on both stores (docs/partners.md), as the team uses it: an
// owner adds a club, reads its key, its counts and its people per country and breed, copies its
// snippets in the club's language, gives it a new key and disables it; a viewer reads only. Every
// change is in the audit log. It fits a 390 px phone and passes axe.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { embedJoinPath } from '../../contract/partners'
import { adminContent } from '../support/admin-words'
import { pageContent } from '../../web/content'
import { axeOn } from '../support/axe'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { watchConsole } from '../support/page'
import { profileOf } from '../support/profile'
import { row } from '../support/rows'
import { STORES } from '../support/stores'
import { joinTeam, ownerIn, signInContext } from '../support/team'

const copy = adminContent.partners

describe.skipIf(!chromiumAvailable).each(STORES)('the Partners view on $kind', ({ kind, available }) => {
  const suite = useServerAndBrowser({}, { kind, available })

  async function open(as: 'owner' | 'viewer', width = 1280): Promise<Page> {
    const context = await suite.browser.newContext({ viewport: { width, height: 900 } })
    if (as === 'owner') await ownerIn(context, suite.server)
    else await signInContext(context, suite.server, await joinTeam(suite.server, `viewer-${Date.now()}@kennect.example`, 'viewer'))
    const page = await context.newPage()
    await page.goto(`${suite.server.url}/admin/partners`)
    await page.getByRole('heading', { name: copy.heading, exact: true }).waitFor()
    return page
  }

  it.skipIf(!available)('lets an owner add a club, read its people and snippets, give it a new key and disable it', async () => {
    const page = await open('owner')
    const problems = watchConsole(page)
    expect(await page.getByRole('link', { name: adminContent.nav.partners }).getAttribute('aria-current')).toBe('page')
    const add = page.getByRole('form', { name: copy.add })
    await add.getByLabel(copy.name).fill('Labrador Club')
    await add.getByLabel(copy.origins).fill('https://club.example\nhttp://localhost:5173')
    await add.getByLabel(copy.country).fill('de')
    // A wrong origin is refused beside the form, naming it; nothing is added.
    await add.getByLabel(copy.thanksUrl).fill('https://elsewhere.example/thanks')
    await add.getByRole('button', { name: copy.save }).click()
    await page
      .getByRole('alert')
      .getByText(/^thanksUrl: must be on one of the partner's origins/)
      .waitFor()
    expect(await suite.server.app.store.partners.list()).toEqual([])
    await add.getByLabel(copy.thanksUrl).fill('https://club.example/thanks')
    await add.getByRole('button', { name: copy.save }).click()
    await page.getByRole('status').getByText(copy.added('Labrador Club')).waitFor()
    const [made] = await suite.server.app.store.partners.list()
    if (!made) throw new Error('no partner made')
    expect(made).toMatchObject({ name: 'Labrador Club', origins: ['https://club.example', 'http://localhost:5173'], country: 'DE' })
    expect(await page.getByLabel(copy.key('Labrador Club')).inputValue()).toBe(made.key)

    // Two people through its embed, one confirmed: its counts, and (exact) per country and breed.
    for (const [email, confirmed] of [
      ['ada@example.com', true],
      ['bea@example.com', false],
    ] as const) {
      await suite.server.app.store.add(row(email, { partner: made.id }))
      const id = (await suite.server.app.store.list({ limit: 1, search: email }))[0]?.id ?? 0
      if (confirmed) await suite.server.app.store.visitors.confirm(id)
      await suite.server.app.store.visitors.saveProfile(id, profileOf({ role: 'breeder', breeds: ['Labrador'], country: 'DE' }))
    }
    await page.reload()
    await page.getByText(copy.counts(2, 1)).waitFor()
    await page.getByText(copy.details).click()
    const countries = page.getByRole('region', { name: copy.countriesCaption('Labrador Club') })
    // Countries by their names in the operator's language.
    await countries.getByRole('row', { name: `${new Intl.DisplayNames(['en'], { type: 'region' }).of('DE')} 2 1` }).waitFor()
    await page
      .getByRole('region', { name: copy.breedsCaption('Labrador Club') })
      .getByRole('row', { name: 'Labrador Retriever 2 1' })
      .waitFor()

    // The snippets in German: the form's words are the German page's.
    await page.getByLabel(copy.snippetLanguage).selectOption('de')
    const form = page.getByLabel(copy.snippet.form)
    await expect.poll(() => form.inputValue()).toContain(`<button type="submit">${pageContent('de').waitlist.submit}</button>`)
    expect(await form.inputValue()).toContain(embedJoinPath(made.key))
    expect(await page.getByLabel(copy.snippet.script).inputValue()).toContain(`data-partner="${made.key}" data-lang="de"`)

    const results = await axeOn(page).analyze()
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

    // A new key (asked first), then disabled: the store refuses both old and new key's embeds.
    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: copy.rotate }).click()
    await page.getByRole('status').getByText(copy.rotated('Labrador Club')).waitFor()
    const rotated = (await suite.server.app.store.partners.get(made.id))?.key ?? ''
    expect(rotated).not.toBe(made.key)
    await expect.poll(() => page.getByLabel(copy.key('Labrador Club')).inputValue()).toBe(rotated)
    await page.getByRole('button', { name: copy.disable }).click()
    await page.getByText(`(${copy.disabledTag})`).waitFor()
    expect(await suite.server.app.store.partners.byKey(rotated)).toBeUndefined()
    const audit = await suite.server.app.store.team.auditLog({ limit: 10 })
    expect(audit.filter((line) => line.target === `partner ${made.id}`).map((line) => line.action)).toEqual([
      'partner changed',
      'partner key rotated',
      'partner added',
    ])
    // The one failed load is the refused thanks URL (the browser logs every 4xx).
    expect(problems).toEqual(['error: Failed to load resource: the server responded with a status of 400 (Bad Request)'])
    await page.context().close()
  })

  it.skipIf(!available)('shows a viewer the partners, with no button or form to change them', async () => {
    const page = await open('viewer')
    await page.getByText(copy.counts(2, 1)).waitFor()
    expect(await page.getByRole('button', { name: copy.rotate }).count()).toBe(0)
    expect(await page.getByRole('button', { name: copy.enable }).count()).toBe(0)
    expect(await page.getByRole('form', { name: copy.add }).count()).toBe(0)
    await page.context().close()
  })
})
