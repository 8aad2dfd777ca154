// Launch day on the admin page, as the team would live it with no SMTP configured: read who is
// waiting, compose a campaign for breeders in one country, preview it, send a test, send it, watch
// its progress bar to the end, and find the mails in the local mailbox.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Profile } from '../../contract/visitor'
import { adminContent } from '../../web/admin/content'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { row } from '../support/rows'

const TOKEN = 'campaign-page-token-0123456789'
const copy = adminContent.campaigns
const SUBJECT = 'Kennect is ready for breeders in Britain'

const PEOPLE: [string, Profile][] = [
  ['b1.gb@example.com', { role: 'breeder', breeds: ['Whippet'], country: 'GB' }],
  ['b2.gb@example.com', { role: 'breeder', breeds: ['Whippet', 'Beagle'], country: 'GB' }],
  ['b3.gb@example.com', { role: 'breeder', breeds: [], country: 'GB' }],
  ['o1.gb@example.com', { role: 'owner', breeds: ['Whippet'], country: 'GB' }],
  ['b1.fr@example.com', { role: 'breeder', breeds: ['Beagle'], country: 'FR' }],
]

describe.skipIf(!chromiumAvailable)('campaigns on the admin page', () => {
  const suite = useServerAndBrowser({ ADMIN_TOKEN: TOKEN, MAIL_RATE_PER_SECOND: '0', APP_STORE_URL: 'https://apps.apple.com/app/id123' })
  beforeAll(async () => {
    const { store } = suite.server.app
    for (const [email, profile] of PEOPLE) {
      await store.add(row(email))
      const [listed] = await store.list({ limit: 1, search: email })
      await store.visitors.confirm(listed?.id ?? 0)
      await store.visitors.saveProfile(listed?.id ?? 0, profile)
    }
  })

  async function signIn(): Promise<Page> {
    const page = await (await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
    await page.goto(`${suite.server.url}/admin`)
    await page.getByLabel(adminContent.signIn.tokenLabel).fill(TOKEN)
    await page.getByRole('button', { name: adminContent.signIn.submit }).click()
    await page.getByRole('heading', { name: copy.heading, exact: true }).waitFor()
    return page
  }

  it('shows who waits where, in a table beside the chart', async () => {
    const page = await signIn()
    const table = page.getByRole('table', { name: adminContent.demand.tableCaption })
    const gb = table.getByRole('row', { name: /^GB/ })
    await gb.waitFor()
    expect((await gb.innerText()).split(/\s+/)).toEqual(['GB', '3', '1', '0', '0', '0', '4', adminContent.demand.both])
    // At 1280 px every column is in sight, "both sides" (the one the launch is decided on) too: nothing to scroll to.
    const sight = await table.evaluate((element) => {
      const box = element.parentElement!.getBoundingClientRect()
      return [...element.querySelectorAll('th')].map((th) => th.getBoundingClientRect().right <= box.right + 1)
    })
    expect(sight.every(Boolean)).toBe(true)
    const breeds = page.getByRole('table', { name: adminContent.demand.breedsCaption })
    expect((await breeds.getByRole('row', { name: /Whippet/ }).innerText()).split(/\s+/)).toEqual(['Whippet', '2', '1', '0', '3'])
    await page.context().close()
  })

  it('composes, previews, tests and sends a campaign to breeders in one country, watched to the end', async () => {
    const page = await signIn()
    await page.getByLabel(copy.subject, { exact: true }).fill(SUBJECT)
    await page.getByRole('checkbox', { name: adminContent.roles.breeder }).check()
    await page.getByLabel(copy.countries).fill('gb')
    await page.getByRole('button', { name: copy.preview }).click()
    const draft = page.getByRole('region', { name: copy.recipients(3) })
    await draft.waitFor()
    const preview = page.frameLocator(`iframe[title="${copy.previewFrame}"]`)
    await preview.getByRole('link', { name: 'Get the app' }).waitFor()

    await page.getByLabel(copy.testAddress).fill('team@example.com')
    await page.getByRole('button', { name: copy.sendTest }).click()
    await page.getByRole('status').getByText(copy.testSent).waitFor()

    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: copy.send(3) }).click()
    const bar = page.getByRole('progressbar', { name: copy.progressLabel(SUBJECT) })
    await page.waitForFunction(
      (label) => document.querySelector(`[role="progressbar"][aria-label="${label}"]`)?.getAttribute('aria-valuenow') === '100',
      copy.progressLabel(SUBJECT),
      { timeout: 20_000 },
    )
    expect(await bar.getAttribute('aria-valuetext')).toBe(`100%: ${copy.progress(3, 3)}`)
    await page.getByText(`(${copy.statuses.finished})`).first().waitFor()

    // The mails, in the local mailbox: the three campaign mails and the test.
    await page.waitForFunction((subject) => document.body.innerText.split(subject).length - 1 >= 4, SUBJECT, { timeout: 10_000 })
    const listed = await page.getByRole('button', { name: adminContent.mail.previewLabel(SUBJECT) }).count()
    const tests = await page.getByRole('button', { name: adminContent.mail.previewLabel(`[Test] ${SUBJECT}`) }).count()
    expect([listed, tests]).toEqual([3, 1])
    // And the page, with its progress bars and preview, passes axe.
    const results = await new AxeBuilder({ page }).analyze()
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    await page.context().close()
  })

  it('says which field is wrong when a campaign is refused', async () => {
    const page = await signIn()
    await page.getByLabel(copy.subject, { exact: true }).fill('Hello')
    await page.getByLabel(copy.markdown).fill('Dear {{name}}')
    await page.getByRole('button', { name: copy.preview }).click()
    await page
      .getByRole('alert')
      .getByText(/unknown placeholder \{\{name\}\}/)
      .waitFor()
    await page.getByLabel(copy.markdown).fill('Hello')
    await page.getByLabel(copy.countries).fill('Narnia')
    await page.getByRole('button', { name: copy.preview }).click()
    await page
      .getByRole('alert')
      .getByText(/segment\/countries\/0/)
      .waitFor()
    await page.context().close()
  })
})
