// A campaign's segment in the composer, field by field (contract/segment.ts): a draft made through
// the API with every field set opens with each control filled, is counted and saved, and comes back
// as it was; which dogs and ready breeds are set and cleared through their own controls.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { CampaignWritten, Segment } from '../../contract/campaigns'
import { adminContent } from '../support/admin-words'
import { axeOn } from '../support/axe'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { profileOf, type TestProfile } from '../support/profile'
import { row } from '../support/rows'
import { asOperator, ownerIn } from '../support/team'

const copy = adminContent.campaigns

const PEOPLE: [string, TestProfile][] = [
  ['stud.pl@example.com', { role: 'breeder', breeds: [{ name: 'German Shepherd Dog', side: 'stud' }], country: 'PL' }],
  ['dam.pl@example.com', { role: 'breeder', breeds: [{ name: 'Deutscher Schäferhund', side: 'dam' }], country: 'PL' }],
  ['seeker.gb@example.com', { role: 'owner', breeds: [{ name: 'Whippet', side: 'seeker' }], country: 'GB' }],
]

/** Every field a segment has, each set, the free texts with a comma and the moments with a time and zone. */
const EVERY_FIELD: Required<Segment> = {
  roles: ['breeder', 'owner'],
  countries: ['PL', 'GB'],
  breeds: ['german-shepherd-dog', 'Andalusian Terrier, Sherry Terrier'],
  sides: ['stud', 'dam'],
  readyBreeds: true,
  since: '2020-01-01',
  until: '2099-12-31T23:30:00+02:00',
  sources: ['newsletter', 'forum.example.org'],
  includeUnconfirmed: true,
  invitedAtLeast: 2,
  readyCountries: true,
  platforms: ['ios', 'android'],
  locales: ['en', 'pl'],
  claimed: false,
  partners: ['1', '2'],
  imported: true,
}

describe.skipIf(!chromiumAvailable)('a campaign segment in the composer', () => {
  const suite = useServerAndBrowser({ MAIL_RATE_PER_SECOND: '0' })
  beforeAll(async () => {
    const { store } = suite.server.app
    for (const [email, profile] of PEOPLE) {
      await store.add(row(email))
      const [listed] = await store.list({ limit: 1, search: email })
      await store.visitors.confirm(listed?.id ?? 0)
      await store.visitors.saveProfile(listed?.id ?? 0, profileOf(profile))
    }
  })

  /** An owner on the campaigns view, and the admin API as that owner. */
  async function signIn() {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const owner = await ownerIn(context, suite.server)
    const page = await context.newPage()
    await page.goto(`${suite.server.url}/admin/campaigns`)
    const api = asOperator(suite.server, owner)
    const draft = async (id: number) => ((await (await api(`/campaigns/${id}/draft`)).json()) as CampaignWritten).segment
    const make = async (subject: string, segment: Segment) => {
      const answer = await api('/campaigns', { method: 'POST', body: { subject, markdown: 'Hello.', segment, send: false } })
      expect(answer.status, await answer.clone().text()).toBe(201)
      return ((await answer.json()) as { id: number; recipients: number }).id
    }
    return { page, draft, make }
  }

  /** Presses "Count and preview": answers the draft as the server saved and counted it. */
  async function save(page: Page) {
    const saved = page.waitForResponse(
      (response) => /\/admin\/api\/campaigns(\/\d+)?$/.test(response.url()) && ['POST', 'PUT'].includes(response.request().method()),
    )
    await page.getByRole('button', { name: copy.preview }).click()
    const answer = await saved
    expect(answer.status()).toBeLessThan(300)
    const draft = (await answer.json()) as { id: number; recipients: number }
    await page.getByRole('region', { name: copy.recipients(draft.recipients) }).waitFor()
    return draft
  }

  /** Opens a draft from the list as counted now, then counts and saves it as the composer shows it. */
  async function openAndSave(page: Page, subject: string, recipients: number) {
    await page.getByRole('button', { name: copy.openLabel(subject) }).click()
    await page.getByRole('region', { name: copy.recipients(recipients) }).waitFor()
    expect((await save(page)).recipients).toBe(recipients)
  }

  it('opens a draft with every field set, counts and saves it, and the segment comes back unchanged', async () => {
    const { page, draft, make } = await signIn()
    const every = await make('Every field', EVERY_FIELD)
    const studs = await make('Polish shepherd studs', { breeds: ['german-shepherd-dog'], sides: ['stud'], countries: ['PL'] })
    const readyDams = await make('Ready dams', { readyBreeds: true, sides: ['dam'] })
    await page.reload()

    await openAndSave(page, 'Every field', 0)
    expect(await draft(every)).toEqual(EVERY_FIELD)
    // Each control shows its part whole: a breed with a comma on its own line, a moment with its zone.
    expect(await page.getByLabel(copy.breeds, { exact: true }).inputValue()).toBe(EVERY_FIELD.breeds.join('\n'))
    expect(await page.getByLabel(copy.until, { exact: true }).inputValue()).toBe(EVERY_FIELD.until)
    expect(await page.getByRole('group', { name: copy.sides }).getByRole('checkbox', { checked: true }).count()).toBe(2)
    expect(await page.getByRole('checkbox', { name: copy.readyBreeds }).isChecked()).toBe(true)
    // Every control labelled, each group with its legend: axe finds nothing in the composer.
    const results = await axeOn(page).include(`form[aria-label="${copy.compose}"]`).analyze()
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])

    // The two drafts the composer used to save wider than written: counted as written, and kept so.
    await openAndSave(page, 'Polish shepherd studs', 1)
    expect(await draft(studs)).toEqual({ countries: ['PL'], breeds: ['german-shepherd-dog'], sides: ['stud'] })
    await openAndSave(page, 'Ready dams', 0)
    expect(await page.getByRole('button', { name: copy.send(0) }).isDisabled()).toBe(true)
    expect(await draft(readyDams)).toEqual({ sides: ['dam'], readyBreeds: true })
    await page.context().close()
  })

  it('says so when a draft saved before holds what the form cannot show', async () => {
    const { page } = await signIn()
    // Written straight to the store, as a draft saved before free texts were checked could be.
    await suite.server.app.store.campaigns.create({
      subject: 'Old draft',
      markdown: 'Hello.',
      translations: {},
      segment: { breeds: [' Whippet '] },
    })
    await page.reload()
    await page.getByRole('button', { name: copy.openLabel('Old draft') }).click()
    await page
      .getByRole('status')
      .getByText(copy.unshown([copy.breeds]))
      .waitFor()
    expect(await page.getByLabel(copy.breeds, { exact: true }).inputValue()).toBe(' Whippet ')
    await page.context().close()
  })

  it('sets and clears which dogs and ready breeds through their controls', async () => {
    const { page, draft } = await signIn()
    await page.getByLabel(copy.subject, { exact: true }).fill('Studs')
    const sides = page.getByRole('group', { name: copy.sides })
    await sides.getByRole('checkbox', { name: copy.option('sides', 'stud') }).check()
    const { id, recipients } = await save(page)
    expect(recipients).toBe(1)
    expect(await draft(id)).toEqual({ sides: ['stud'] })

    // By keyboard: the dams too, then ready breeds (none is ready at the default targets).
    await sides.getByRole('checkbox', { name: copy.option('sides', 'dam') }).focus()
    await page.keyboard.press('Space')
    await page.getByRole('checkbox', { name: copy.readyBreeds }).focus()
    await page.keyboard.press('Space')
    expect((await save(page)).recipients).toBe(0)
    expect(await draft(id)).toEqual({ sides: ['stud', 'dam'], readyBreeds: true })

    await sides.getByRole('checkbox', { name: copy.option('sides', 'stud') }).uncheck()
    await sides.getByRole('checkbox', { name: copy.option('sides', 'dam') }).uncheck()
    await page.getByRole('checkbox', { name: copy.readyBreeds }).uncheck()
    expect((await save(page)).recipients).toBe(PEOPLE.length)
    expect(await draft(id)).toEqual({})
    await page.context().close()
  })
})
