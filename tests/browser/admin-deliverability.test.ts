// The Deliverability view on both stores (docs/decisions/020-deliverability.md), as the team reads
// and runs it: the complaint rate said against the 0.3 % line, the campaign's and each domain's
// figures, and the suppression list searched, added to and lifted from. A viewer reads the figures
// and nothing of the list. It fits a 390 px phone.
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { percent } from '../../contract/deliverability'
import { adminContent } from '../support/admin-words'
import { axeOn } from '../support/axe'
import { chromiumAvailable } from '../support/chromium'
import { useServerAndBrowser } from '../support/browser-suite'
import { outboxSettled } from '../support/outbox'
import { watchConsole } from '../support/page'
import { row } from '../support/rows'
import { STORES } from '../support/stores'
import { joinTeam, ownerIn, runSql, sameSql, signInContext } from '../support/team'

const copy = adminContent.deliverability

describe.skipIf(!chromiumAvailable).each(STORES)('the Deliverability view on $kind', ({ kind, available }) => {
  const suite = useServerAndBrowser(
    {},
    {
      kind,
      available,
      seed: async (server) => {
        const { store } = server.app
        // Three confirmed sign-ups at two domains, a confirmation each, then a campaign to them.
        for (const email of ['ann@example.com', 'bob@example.com', 'cy@example.org']) await store.add(row(email))
        await outboxSettled(store)
        for (const signup of await store.list({ limit: 10 })) await store.visitors.confirm(signup.id)
        const id = await store.campaigns.create({ subject: 'We launch', markdown: 'Hello.', translations: {}, segment: {} })
        await store.campaigns.send(id)
        await outboxSettled(store)
        // Ann reports it as spam; Cy's provider takes it back (a hard bounce): both are suppressed.
        const mailOf = async (email: string) =>
          Number(
            (
              await runSql(
                server,
                sameSql(
                  `SELECT outbox.id FROM outbox JOIN waitlist ON waitlist.id = outbox.signup_id WHERE kind = 'campaign' AND email = ?`,
                ),
                [email],
              )
            )[0]?.id,
          )
        await server.app.suppressions.report({ outboxId: await mailOf('ann@example.com'), type: 'complaint', source: 'fbl' })
        await server.app.suppressions.report({ outboxId: await mailOf('cy@example.org'), type: 'hard-bounce', source: 'mta' })
      },
    },
  )

  async function open(width = 1280): Promise<Page> {
    const context = await suite.browser.newContext({ viewport: { width, height: 900 } })
    await ownerIn(context, suite.server)
    const page = await context.newPage()
    await page.goto(`${suite.server.url}/admin/deliverability`)
    await rowsOf(page, copy.campaignsCaption).first().waitFor()
    return page
  }
  const rowsOf = (page: Page, caption: string): Locator => page.getByRole('table', { name: caption }).locator('tbody tr')
  /** A table as a person reads it: each row's cells, each cell's first line (its share is under it). */
  const read = async (page: Page, caption: string) =>
    (await rowsOf(page, caption).allInnerTexts()).map((text) => text.split('\t').map((cell) => cell.trim().split('\n')[0]?.trim()))
  const suppressed = async (page: Page) => (await read(page, copy.suppressionsCaption)).map((cells) => cells.slice(0, 2))

  it.skipIf(!available)(
    'says the complaint rate against the 0.3 % line and each campaign’s and domain’s figures; fits 390 px',
    async () => {
      const page = await open()
      const problems = watchConsole(page)
      expect(await page.getByRole('link', { name: adminContent.nav.deliverability }).getAttribute('aria-current')).toBe('page')
      // One complaint against the six mails accepted.
      const rate = page.getByRole('group', { name: copy.rateHeading })
      await rate.getByText(copy.above(percent(0.003))).waitFor()
      expect(await rate.getByText(percent(1 / 6), { exact: true }).count()).toBe(1)
      expect(await rate.getByText(copy.rateFigures(1, 6)).count()).toBe(1)
      expect(await page.getByRole('meter', { name: copy.meterLabel }).getAttribute('aria-valuetext')).toBe(
        `${copy.rate(percent(1 / 6))}; ${copy.line(percent(0.003))}`,
      )
      // Sent, delivered, hard, soft, complaints, unsubscribed (Ann's complaint stopped her e-mails).
      expect(await read(page, copy.campaignsCaption)).toEqual([['#1 We launch', 'finished', '3', '2', '1', '0', '1', '1']])
      expect(await read(page, copy.domainsCaption)).toEqual([
        ['example.com', '4', '4', '0', '0', '1', '1'],
        ['example.org', '2', '1', '1', '0', '0', '0'],
      ])
      const results = await axeOn(page).analyze()
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])

      // On a phone the page does not scroll sideways: the tables scroll in their own regions.
      await page.setViewportSize({ width: 390, height: 844 })
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      const region = page.getByRole('region', { name: copy.campaignsCaption })
      expect(await region.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true)
      expect(problems).toEqual([])
      await page.context().close()
    },
  )

  it.skipIf(!available)('searches, adds to and lifts from the suppression list', async () => {
    const page = await open()
    await expect
      .poll(() => suppressed(page))
      .toEqual(
        expect.arrayContaining([
          ['ann@example.com', copy.reasons.complaint],
          ['cy@example.org', copy.reasons['hard-bounce']],
        ]),
      )
    await page.getByLabel(copy.search).fill('CY@')
    await expect.poll(() => suppressed(page)).toEqual([['cy@example.org', copy.reasons['hard-bounce']]])
    await page.getByLabel(copy.search).fill('nobody')
    await page.getByText(copy.noMatches).waitFor()
    await page.getByLabel(copy.search).fill('')

    // Added by hand: said, listed, and never mailed.
    await page.getByLabel(copy.addLabel).fill('Dora@Example.net')
    await page.getByRole('button', { name: copy.addButton, exact: true }).click()
    await page
      .getByRole('status')
      .filter({ hasText: copy.added('dora@example.net') })
      .waitFor()
    await expect.poll(() => suppressed(page)).toContainEqual(['dora@example.net', copy.reasons.manual])
    expect((await suite.server.app.store.suppressions.list('dora', 10)).map((s) => s.reason)).toEqual(['manual'])

    // Cy's lifted, after a confirmation.
    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: copy.liftLabel('cy@example.org') }).click()
    await page
      .getByRole('status')
      .filter({ hasText: copy.lifted('cy@example.org') })
      .waitFor()
    await expect.poll(async () => (await suppressed(page)).map(([email]) => email)).not.toContain('cy@example.org')
    expect(await suite.server.app.store.suppressions.list('cy@', 10)).toEqual([])

    const link = page.getByRole('link', { name: copy.downloadCsv })
    expect(await link.getAttribute('href')).toBe('/admin/api/suppressions.csv')
    await page.context().close()
  })

  it.skipIf(!available)('shows a viewer the figures and not the suppression list', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })
    await signInContext(context, suite.server, await joinTeam(suite.server, 'vera@kennect.example', 'viewer'))
    const page = await context.newPage()
    await page.goto(`${suite.server.url}/admin/deliverability`)
    await rowsOf(page, copy.campaignsCaption).first().waitFor()
    await page.waitForLoadState('networkidle')
    expect(await page.getByRole('main').getByRole('heading', { level: 2 }).allTextContents()).toEqual([copy.heading])
    // The domains, which can name a family, are one row for a viewer.
    expect((await read(page, copy.domainsCaption)).map((cells) => cells[0])).toEqual([copy.allDomains(2)])
    await context.close()
  })
})
