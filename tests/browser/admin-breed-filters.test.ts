// The breed filters of the admin page, on both stores, as an owner reads them: the demand map
// narrowed to the people who named one breed (the launch meters and inviters stay everyone's, and
// saving targets keeps the filter), and the funnel's cohorts narrowed to them while the views,
// which have no breed, stay everyone's.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { adminContent } from '../support/admin-words'
import { axeOn } from '../support/axe'
import { chromiumAvailable } from '../support/chromium'
import { useServerAndBrowser } from '../support/browser-suite'
import { visit, watchConsole } from '../support/page'
import { profileOf, type TestProfile } from '../support/profile'
import { row } from '../support/rows'
import { STORES } from '../support/stores'
import { asOperator, ownerIn, type TestOperator } from '../support/team'

const copy = adminContent.demand
const launch = adminContent.launch
const funnelCopy = adminContent.funnel
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

/** Three Pug breeders in France, two Labrador owners in Germany, all confirmed. */
const PEOPLE: [string, TestProfile][] = [
  ['pug.fr1@example.com', { role: 'breeder', breeds: [{ name: 'Pug', side: 'dam' }], country: 'FR' }],
  ['pug.fr2@example.com', { role: 'breeder', breeds: [{ name: 'Pug', side: 'stud' }], country: 'FR' }],
  ['pug.fr3@example.com', { role: 'breeder', breeds: [{ name: 'Pug', side: 'dam' }], country: 'FR' }],
  ['lab.de1@example.com', { role: 'owner', breeds: [{ name: 'Labrador Retriever', side: 'seeker' }], country: 'DE' }],
  ['lab.de2@example.com', { role: 'owner', breeds: [{ name: 'Labrador', side: 'seeker' }], country: 'DE' }],
]

describe.skipIf(!chromiumAvailable).each(STORES)('the breed filters on the admin page on $kind', ({ kind, available }) => {
  const suite = useServerAndBrowser(
    {},
    {
      kind,
      available,
      seed: async (server) => {
        // Seeded before the first count: the breeds the selects offer are counted at most once a minute.
        const { store } = server.app
        for (const [email, profile] of PEOPLE) {
          await store.add(row(email))
          const id = (await store.list({ limit: 1, search: email }))[0]?.id ?? 0
          await store.visitors.confirm(id)
          await store.visitors.saveProfile(id, profileOf(profile))
        }
      },
    },
  )

  /** An owner on a view of the admin app, at 1280 px. */
  async function open(view: string): Promise<{ page: Page; owner: TestOperator; problems: string[] }> {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const owner = await ownerIn(context, suite.server)
    const page = await context.newPage()
    const problems = watchConsole(page)
    await page.goto(`${suite.server.url}/admin${view}`)
    return { page, owner, problems }
  }
  /** A table as a person reads it: each row's cells. */
  const read = async (page: Page, caption: string) =>
    (await page.getByRole('table', { name: caption, exact: true }).locator('tbody tr').allInnerTexts()).map((text) =>
      text.split('\t').map((cell) => cell.trim()),
    )
  const axe = async (page: Page) =>
    (await axeOn(page).analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)

  it.skipIf(!available)("narrows the demand map to one breed's people; the launch meters and inviters stay everyone's", async () => {
    const { page, owner, problems } = await open('/demand')
    const breed = page.getByLabel(adminContent.breeds.breed, { exact: true })
    // Everyone: France's three breeders, Germany's two owners.
    await expect
      .poll(() => read(page, copy.tableCaption))
      .toEqual([
        ['FR', '3', '0', '0', '0', '0', '3', ''],
        ['DE', '0', '2', '0', '0', '0', '2', ''],
      ])
    await page.getByText(copy.totals(5, 5, 0), { exact: true }).waitFor()
    expect(await page.getByText(copy.forEveryone).count()).toBe(0)
    // The select offers the breeds with counted profiles, by name.
    await expect.poll(() => breed.locator('option').allInnerTexts()).toEqual([adminContent.breeds.anyBreed, 'Labrador Retriever', 'Pug'])

    await breed.selectOption({ label: 'Pug' })
    await expect.poll(() => read(page, copy.tableCaption)).toEqual([['FR', '3', '0', '0', '0', '0', '3', '']])
    await page.getByText(copy.totals(3, 3, 0, 'Pug'), { exact: true }).waitFor()
    expect(await read(page, copy.breedsCaption)).toEqual([['Pug', '3', '0', '0', '3']])
    expect(await page.getByText(copy.forEveryone).isVisible()).toBe(true)
    // The launch meters still count Germany's owners (in their own order, the readiest first).
    expect((await read(page, launch.caption)).map((cells) => cells[0]).sort()).toEqual(['France (FR)', 'Germany (DE)'])
    expect(await axe(page)).toEqual([])

    // New targets reload the meters (France's three breeders make it ready), and the map keeps its breed.
    const targets = page.getByRole('group', { name: launch.defaultRow })
    await targets.getByLabel(launch.breeders).fill('3')
    await targets.getByLabel(launch.owners).fill('0')
    await page.getByRole('button', { name: launch.save }).click()
    await page.getByRole('status').filter({ hasText: launch.saved }).waitFor()
    const france = page.getByRole('table', { name: launch.caption }).getByRole('row', { name: /\(FR\)/ })
    await france.getByText(launch.of(3, 3)).waitFor()
    expect(await france.getByText(launch.ready).isVisible()).toBe(true)
    expect(await read(page, copy.tableCaption)).toEqual([['FR', '3', '0', '0', '0', '0', '3', '']])
    expect(await breed.inputValue()).toBe('pug')

    // All breeds again: everyone.
    await breed.selectOption('')
    await expect.poll(() => read(page, copy.tableCaption)).toHaveLength(2)
    expect(await page.getByText(copy.forEveryone).count()).toBe(0)

    // The API names a breed the catalogue lacks.
    const call = asOperator(suite.server, owner)
    for (const path of ['/segments?breed=no-such', '/funnel?breed=no-such']) {
      const answer = await call(path)
      expect(answer.status, path).toBe(400)
      expect(((await answer.json()) as { message: string }).message, path).toMatch(/not a breed of the catalogue/)
    }
    expect(problems).toEqual([])
    await page.context().close()
  })

  it.skipIf(!available)("narrows the funnel's sign-ups to one breed's people; views and visitors stay everyone's", async () => {
    // A person's four views of the landing page (a headless browser's would be taken for a bot's).
    const person = await visit(suite.browser, `${suite.server.url}/`, { userAgent: CHROME })
    for (let i = 1; i < 4; i++) await person.page.reload()
    await person.page.context().close()

    const { page, problems } = await open('')
    const today = new Date().toISOString().slice(0, 10)
    /** Today's views, visitors and sign-ups, as the per-day table says them. */
    const todays = async () =>
      (await read(page, funnelCopy.daysCaption)).find((cells) => cells[0] === adminContent.format.day(today))?.slice(1, 4)
    await expect.poll(todays).toEqual(['4', '1', '5'])
    const note = page.getByText(funnelCopy.breedNote('Pug'))
    expect(await note.count()).toBe(0)

    const breed = page.getByLabel(adminContent.breeds.breed, { exact: true })
    await expect.poll(() => breed.locator('option').count()).toBe(3)
    await breed.selectOption({ label: 'Pug' })
    await expect.poll(todays).toEqual(['4', '1', '3'])
    expect(await note.isVisible()).toBe(true)
    // The funnel's steps from sign-ups on are Pug's too: three signed up and confirmed.
    const steps = page.getByRole('list', { name: funnelCopy.chartLabel }).getByRole('listitem')
    expect((await steps.nth(1).innerText()).replace(/\s+/g, ' ')).toContain('Sign-ups 3')
    expect((await steps.nth(2).innerText()).replace(/\s+/g, ' ')).toContain('Confirmed 3')
    expect(await axe(page)).toEqual([])

    // Other days keep the breed: the select and the dates are one form.
    await page.getByLabel(funnelCopy.since).fill(today)
    await page.getByRole('button', { name: funnelCopy.show }).click()
    await expect.poll(async () => (await read(page, funnelCopy.daysCaption)).length).toBe(1)
    expect(await todays()).toEqual(['4', '1', '3'])
    expect(await note.isVisible()).toBe(true)

    await breed.selectOption('')
    await expect.poll(todays).toEqual(['4', '1', '5'])
    expect(await note.count()).toBe(0)
    expect(problems).toEqual([])
    await page.context().close()
  })
})
