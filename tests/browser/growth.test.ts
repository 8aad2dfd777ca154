// Growing the list, as people do it in Chromium, on both stores (docs/decisions/015-growth.md): a
// visitor confirms and copies their invite link; a friend joins through it without JavaScript,
// another with it; only the one who confirms is credited, and never the visitor's own Gmail alias.
// The landing page says how many wait from the 100th confirmed sign-up on; the views a person
// makes are counted, a bot's and a prefetch's are not. With more sign-ups through the API than
// visitors of the page, the Funnel reads no share over 100 %, and the steps after sign-ups are
// shares of the sign-ups (issue 49, item 13).
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { Funnel } from '../../contract/growth'
import { adminContent } from '../support/admin-words'
import { content, pageContent } from '../../web/content'
import { englishVisitorContent as visitorContent, visitorContent as visitorContentIn } from '../../web/visitor/content'
import { chromiumAvailable } from '../support/chromium'
import { useServerAndBrowser } from '../support/browser-suite'
import { emailInput, joinButton, readToast, submitEmail, toasts, visit, waitForHydration } from '../support/page'
import { pageTokenFor } from '../support/page-links'
import { figureKey } from '../../server/growth/public-figures'
import { seedSignUps } from '../support/seed'
import { STORES } from '../support/stores'
import { profileOf } from '../support/profile'
import { ownerIn } from '../support/team'

const ADMIN_TOKEN = 'admin-token-for-the-growth-story-0123'
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

describe.skipIf(!chromiumAvailable).each(STORES)('growing the list on $kind', ({ kind, available }) => {
  const suite = useServerAndBrowser({ ADMIN_TOKEN, FORM_MIN_SECONDS: '0', MAIL_RATE_PER_SECOND: '0' }, { kind, available })

  /** Opens the visitor's own page from the link in their mail, and presses Confirm there. */
  async function confirmFromMail(email: string): Promise<Page> {
    const token = await pageTokenFor(suite.server.config.MAIL_DIR, email)
    const { page } = await visit(suite.browser, `${suite.server.url}/me/${token}`)
    await page.getByRole('button', { name: visitorContent.confirm.button }).click()
    await page.waitForURL(/\?done=confirmed$/)
    return page
  }
  async function joinWithScript(url: string, email: string): Promise<void> {
    const { page } = await visit(suite.browser, url)
    await waitForHydration(page)
    await submitEmail(page, email)
    expect((await readToast(toasts(page).first())).text).toContain(content.waitlist.success.title)
    await page.context().close()
  }
  const signUp = async (email: string) => (await suite.server.app.store.list({ limit: 1, search: email }))[0]

  it.skipIf(!available)('a confirmed visitor invites two people; only the one who confirms counts, and never their own alias', async () => {
    // A joins on the page and confirms from their mail; the page now holds their link.
    await joinWithScript(`${suite.server.url}/`, 'ada.lovelace@gmail.com')
    const ada = await confirmFromMail('ada.lovelace@gmail.com')
    await ada.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url })
    await ada.getByRole('button', { name: visitorContent.invite.copy }).click()
    await ada.getByRole('status').filter({ hasText: visitorContent.invite.copied }).waitFor()
    const link = await ada.evaluate(() => navigator.clipboard.readText())
    expect(link).toMatch(/\/\?invite=[A-Za-z0-9_-]{22}$/)
    expect(await ada.getByText(link, { exact: true }).isVisible()).toBe(true)
    expect(await ada.getByText(visitorContent.invite.counts(0, 0)).isVisible()).toBe(true)
    // The e-mail and WhatsApp links carry it too (they need no script).
    expect(await ada.getByRole('link', { name: visitorContent.invite.email }).getAttribute('href')).toContain(encodeURIComponent(link))
    expect(await ada.getByRole('link', { name: visitorContent.invite.whatsapp }).getAttribute('href')).toContain(encodeURIComponent(link))
    // The link opens the landing page on this server (SITE_URL is where it listens here).
    const here = link.replace(/^https?:\/\/[^/]+/, suite.server.url)

    // B without JavaScript, C with it.
    const bea = await visit(suite.browser, here, { javaScriptEnabled: false })
    await emailInput(bea.page).fill('bea@example.com')
    await joinButton(bea.page).click()
    await bea.page.waitForURL(/#waitlist-joined$/)
    await bea.page.context().close()
    await joinWithScript(here, 'cem@example.com')
    const adaId = (await signUp('ada.lovelace@gmail.com'))?.id
    expect(await signUp('bea@example.com')).toMatchObject({ invited_by: adaId })
    expect(await signUp('cem@example.com')).toMatchObject({ invited_by: adaId })
    await (await confirmFromMail('bea@example.com')).context().close()
    await ada.reload()
    expect(await ada.getByText(visitorContent.invite.counts(2, 1)).isVisible()).toBe(true)

    // A's own mailbox under another spelling, through A's link, confirmed: not credited.
    await joinWithScript(here, 'AdaLovelace+dogs@googlemail.com')
    await (await confirmFromMail('AdaLovelace+dogs@googlemail.com')).context().close()
    await ada.reload()
    expect(await ada.getByText(visitorContent.invite.counts(2, 1)).isVisible()).toBe(true)
    expect(await signUp('adalovelace+dogs@googlemail.com')).toMatchObject({ invited_by: null })
    await ada.context().close()
  })

  it.skipIf(!available)(
    'an invitee who switches to Deutsch keeps the invite and the campaign, with and without JavaScript; the list names the inviter',
    async () => {
      const german = pageContent('de')
      // Dora joins on the German page and confirms: her page gives the German page's invite link.
      const dora = await visit(suite.browser, `${suite.server.url}/de/`)
      await waitForHydration(dora.page)
      await dora.page.getByRole('textbox', { name: german.waitlist.emailLabel }).fill('dora@example.com')
      await dora.page.getByRole('button', { name: german.waitlist.submit }).click()
      await expect.poll(() => signUp('dora@example.com')).toBeTruthy()
      await dora.page.context().close()
      const token = await pageTokenFor(suite.server.config.MAIL_DIR, 'dora@example.com')
      const page = (await visit(suite.browser, `${suite.server.url}/me/${token}`)).page
      await page.getByRole('button', { name: visitorContentIn('de').confirm.button }).click()
      await page.waitForURL(/\?done=confirmed$/)
      const link = (await page.getByText(/\/de\/\?invite=/).innerText()).trim()
      expect(link).toMatch(/\/de\/\?invite=[A-Za-z0-9_-]{22}$/)
      await page.context().close()
      const code = new URL(link).searchParams.get('invite') ?? ''
      const doraId = (await signUp('dora@example.com'))?.id

      // An English link with a campaign; the visitor chooses Deutsch in the header, then joins.
      const english = `${suite.server.url}/?invite=${code}&utm_source=friend`
      for (const javaScriptEnabled of [true, false]) {
        const email = `switched-${javaScriptEnabled ? 'script' : 'noscript'}@example.com`
        const { page: visitor, problems } = await visit(suite.browser, `${english}#how-it-works`, { javaScriptEnabled })
        if (javaScriptEnabled) await waitForHydration(visitor)
        await visitor.locator('header summary').click()
        await visitor.getByRole('link', { name: 'Deutsch' }).click()
        // With a script the link carries the query and the fragment; without, the server the query.
        const expected = javaScriptEnabled ? `/de/?invite=${code}&utm_source=friend#how-it-works` : `/de/?invite=${code}&utm_source=friend`
        await visitor.waitForURL(`${suite.server.url}${expected}`)
        await visitor.getByRole('textbox', { name: german.waitlist.emailLabel }).fill(email)
        await visitor.getByRole('button', { name: german.waitlist.submit }).click()
        if (javaScriptEnabled) await expect.poll(() => signUp(email)).toBeTruthy()
        else await visitor.waitForURL(/#waitlist-joined$/)
        expect(await signUp(email)).toMatchObject({ invited_by: doraId, utm_source: 'friend', locale: 'de' })
        expect(problems).toEqual([])
        await visitor.context().close()
      }

      // An owner's list says whose invite each came through, and the campaign.
      const context = await suite.browser.newContext()
      await ownerIn(context, suite.server)
      const admin = await context.newPage()
      await admin.goto(`${suite.server.url}/admin/signups`)
      await admin.getByLabel(adminContent.searchLabel).fill('switched-script')
      const row = admin.getByRole('row').filter({ hasText: 'switched-script@example.com' })
      await row.getByRole('cell', { name: `friend · ${adminContent.invitedBy('dora@example.com')}`, exact: true }).waitFor()
      await context.close()
    },
  )

  it.skipIf(!available)('offers the German page to a German browser on the English one, with the invite; never a redirect', async () => {
    const link = `/?invite=AAAAAAAAAAAAAAAAAAAAAA&utm_source=friend`
    const { page, problems } = await visit(suite.browser, `${suite.server.url}${link}`, { locale: 'de-AT' })
    // The English page answers (no redirect), and offers German in German.
    expect(await page.locator('html').getAttribute('lang')).toBe('en')
    const hint = page.getByRole('complementary', { name: 'Diese Seite auf Deutsch lesen' })
    const offer = hint.getByRole('link', { name: 'Diese Seite auf Deutsch lesen' })
    expect(await offer.getAttribute('href')).toBe(`/de${link}`)
    await hint.getByRole('button', { name: 'Schließen' }).click()
    await hint.waitFor({ state: 'detached' })
    await page.reload()
    await waitForHydration(page)
    expect(await hint.count()).toBe(0)
    expect(problems).toEqual([])
    await page.context().close()
    // An English browser is offered nothing.
    const other = await visit(suite.browser, `${suite.server.url}${link}`, { locale: 'en-GB' })
    await waitForHydration(other.page)
    expect(await other.page.getByRole('complementary').count()).toBe(0)
    await other.page.context().close()
  })

  it.skipIf(!available)('the landing page says how many wait at 100 (less its offset), not at 99, and keeps its height', async () => {
    // The total is a public figure (docs/public-figures.md): shown once it reaches 100 less its secret offset.
    const offset = (await suite.server.app.launch.figures.offsets())(figureKey.waiting)
    const confirmed = (await suite.server.app.store.growth.waiting()) as number
    const env = kind === 'postgres' ? { DATABASE_URL: suite.server.config.DATABASE_URL } : { SQLITE_PATH: suite.server.config.SQLITE_PATH }
    await seedSignUps(env, { confirmed: 98 + offset - confirmed, prefix: 'waiting' })
    await joinWithScript(`${suite.server.url}/`, 'ninety-nine@example.com')
    await (await confirmFromMail('ninety-nine@example.com')).context().close()
    expect(await suite.server.app.store.growth.waiting()).toBe(99 + offset)
    const { page } = await visit(suite.browser, `${suite.server.url}/`, { viewport: { width: 390, height: 844 } })
    const note = page.getByText(content.hero.note)
    expect(await note.isVisible()).toBe(true)
    expect(await page.getByText(/breeders and dog owners are waiting/).count()).toBe(0)
    const before = await page.locator('#hero-heading').evaluate((h) => h.closest('section')?.getBoundingClientRect().height)

    await joinWithScript(`${suite.server.url}/`, 'hundred@example.com')
    await (await confirmFromMail('hundred@example.com')).context().close()
    await page.reload()
    const line = page.getByText('100 breeders and dog owners are waiting', { exact: true })
    expect(await line.isVisible()).toBe(true)
    expect(await note.count()).toBe(0)
    expect(await page.locator('#hero-heading').evaluate((h) => h.closest('section')?.getBoundingClientRect().height)).toBe(before)
    await page.context().close()
  })

  it.skipIf(!available)(
    "counts a person's ten views as ten views and one visitor, and not a bot's, a prefetch's, a HEAD or an empty User-Agent",
    async () => {
      const funnel = async () => {
        const answer = await fetch(`${suite.server.url}/admin/api/funnel`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
        const day = new Date().toISOString().slice(0, 10)
        return ((await answer.json()) as Funnel).days.find((d) => d.day === day)
      }
      const before = await funnel()
      // A person's browser (a headless one is taken for a bot, as isbot rightly does).
      const person = await visit(suite.browser, `${suite.server.url}/`, { userAgent: CHROME })
      for (let i = 1; i < 10; i++) await person.page.reload()
      // A prefetch of the page, as a link on it would ask for one.
      const prefetched = person.page.waitForRequest((request) => request.url() === `${suite.server.url}/?next=1`)
      await person.page.evaluate(() => {
        const link = document.createElement('link')
        link.rel = 'prefetch'
        link.href = '/?next=1'
        document.head.append(link)
      })
      await prefetched
      await person.page.context().close()
      const bot = await visit(suite.browser, `${suite.server.url}/`, {
        userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      })
      await bot.page.context().close()
      // A browser never sends HEAD or an empty User-Agent for a page; a script does.
      expect((await fetch(`${suite.server.url}/`, { method: 'HEAD' })).status).toBe(200)
      expect((await fetch(`${suite.server.url}/`, { headers: { 'user-agent': '' } })).status).toBe(200)
      const after = await funnel()
      expect({ views: (after?.views ?? 0) - (before?.views ?? 0), visitors: (after?.visitors ?? 0) - (before?.visitors ?? 0) }).toEqual({
        views: 10,
        visitors: 1,
      })
    },
  )
})

describe.skipIf(!chromiumAvailable).each(STORES)('the funnel with sign-ups through the API on $kind', ({ kind, available }) => {
  const suite = useServerAndBrowser({}, { kind, available })
  const copy = adminContent.funnel

  it.skipIf(!available)(
    'says sign-ups per visit, never a share of the visitors over 100 %, when the API brings more sign-ups than visitors',
    async () => {
      // One person, two views of the page; then three sign-ups sent straight to the API (an app, another site's form).
      const person = await visit(suite.browser, `${suite.server.url}/`, { userAgent: CHROME })
      await person.page.reload()
      await person.page.context().close()
      for (const email of ['app1@example.com', 'app2@example.com', 'app3@example.com']) {
        const answer = await fetch(`${suite.server.url}/rest/v1/waitlist`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        })
        expect(answer.status).toBe(201)
      }
      // One of them confirms; the two others tell their profile without confirming (the page lets
      // them): every step after sign-ups is some of the sign-ups, not of the step before.
      const { store } = suite.server.app
      const idOf = async (email: string) => (await store.list({ limit: 1, search: email }))[0]?.id ?? 0
      await store.visitors.confirm(await idOf('app1@example.com'))
      for (const email of ['app2@example.com', 'app3@example.com'])
        await store.visitors.saveProfile(await idOf(email), profileOf({ role: 'owner', breeds: ['Pug'], country: 'DE' }))

      const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })
      await ownerIn(context, suite.server)
      const page = await context.newPage()
      await page.goto(`${suite.server.url}/admin`)
      const funnel = page.getByRole('region', { name: copy.heading })
      const today = adminContent.format.day(new Date().toISOString())
      const rowOf = async (caption: string, first: string) =>
        (await funnel.getByRole('table', { name: caption }).locator('tbody tr').allInnerTexts())
          .map((text) => text.split('\t').map((cell) => cell.trim()))
          .find((cells) => cells[0] === first)
      // Views, visitors, sign-ups, once the views are counted (they are written within a second).
      await expect.poll(async () => (await rowOf(copy.daysCaption, today))?.slice(1, 4)).toEqual(['2', '1', '3'])
      // No share anywhere in the funnel passes a whole.
      const shares = [...(await funnel.innerText()).matchAll(/([\d,.]+) %/g)].map((found) => Number(found[1]?.replace(/,/g, '')))
      expect(shares.filter((share) => share > 100)).toEqual([])
      const perVisit = copy.perVisit(3, 1)
      expect((await rowOf(copy.daysCaption, today))?.[7]).toBe(perVisit)
      expect((await rowOf(copy.sourcesCaption, 'direct'))?.slice(1, 6)).toEqual(['2', '1', '3', '1', perVisit])
      const steps = funnel.getByRole('list', { name: copy.chartLabel }).getByRole('listitem')
      expect((await steps.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
        'Visitors 1',
        `Sign-ups 3 ${copy.perVisitNote(3, 1)}`,
        `Confirmed 1 ${copy.rate(1, 3)} ${copy.ofSignups}`,
        `Told their profile 2 ${copy.rate(2, 3)} ${copy.ofSignups}`,
        `Brought a confirmed sign-up 0 ${copy.rate(0, 3)} ${copy.ofSignups}`,
      ])
      await context.close()
    },
  )
})
