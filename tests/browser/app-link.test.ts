// An app link opened in a browser where the app is not installed (issue 40): an iPhone sees the App
// Store, an Android phone Google Play (carrying the code), a desktop both; in the sign-up's
// language, with JavaScript and without, nothing cut at 320 px, and the code there to copy for an
// app that cannot read the link (on Android too: the install referrer can be lost). A claimed link
// says the profile is in the app already.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { type Platform, UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE } from '../../contract/app'
import type { Locale } from '../../contract/locales'
import { visitorContent } from '../../web/visitor/content'
import { axeOn } from '../support/axe'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { USER_AGENTS } from '../support/devices'
import { outboxSettled } from '../support/outbox'
import { visit } from '../support/page'
import { row } from '../support/rows'

const APP_STORE_URL = 'https://apps.apple.com/app/kennect/id6400000000'
const PLAY_STORE_URL = 'https://play.google.com/store/apps/details?id=app.kennect.android'
const LANGUAGES: Locale[] = ['en', 'de']
const DEVICES: Platform[] = ['ios', 'android', 'other']

describe.skipIf(!chromiumAvailable)("an app link's page", () => {
  // Behind a trusted proxy, so that a test can be another network (X-Forwarded-For).
  const suite = useServerAndBrowser({ MAIL_RATE_PER_SECOND: '0', APP_STORE_URL, PLAY_STORE_URL, TRUST_PROXY: 'loopback' })
  /** Each language's sign-up's app link, as its campaign mail carried it. */
  const codes = new Map<Locale, string>()

  beforeAll(async () => {
    const { store } = suite.server.app
    for (const locale of [...LANGUAGES, 'fr' as const]) {
      await store.add(row(`app-${locale}@example.com`, { locale }))
      const [listed] = await store.list({ limit: 1, search: `app-${locale}@` })
      await store.visitors.confirm(listed?.id ?? 0)
    }
    // A campaign mail makes each recipient's app link.
    const id = await store.campaigns.create({ subject: 'Hello', markdown: '{{app_link}}', translations: {}, segment: {} })
    await store.campaigns.send(id)
    suite.server.app.mailer.nudge()
    await outboxSettled(store)
    for (const locale of [...LANGUAGES, 'fr' as const]) {
      const [listed] = await store.list({ limit: 1, search: `app-${locale}@` })
      const code = (await store.visitors.data(listed?.id ?? 0)).app.code
      if (!code) throw new Error(`no app link for ${locale}`)
      codes.set(locale, code)
    }
  })

  const open = (locale: Locale, device: Platform, javaScriptEnabled: boolean, width = 390) =>
    visit(suite.browser, `${suite.server.url}/app/${codes.get(locale)}`, {
      javaScriptEnabled,
      userAgent: USER_AGENTS[device],
      viewport: { width, height: 800 },
      permissions: ['clipboard-read', 'clipboard-write'],
    })
  const store = (page: Page, words: { label: string }) => page.getByRole('link', { name: words.label })

  it.each(LANGUAGES.flatMap((locale) => DEVICES.flatMap((device) => [true, false].map((js) => [locale, device, js] as const))))(
    '%s, on %s, JavaScript %s: the store for the phone, and the code where the app may ask for it',
    async (locale, device, javaScriptEnabled) => {
      const words = visitorContent(locale).appLink
      const { page, problems } = await open(locale, device, javaScriptEnabled)
      await page.getByRole('heading', { level: 1, name: words.heading }).waitFor()
      expect(await page.locator('html').getAttribute('lang')).toBe(locale)
      expect(await page.title()).toBe(words.title)
      expect(await page.getByText(words.steps[device]).isVisible()).toBe(true)
      const appStore = store(page, words.appStore)
      const play = store(page, words.googlePlay)
      expect(await appStore.count()).toBe(device === 'android' ? 0 : 1)
      expect(await play.count()).toBe(device === 'ios' ? 0 : 1)
      if (device !== 'android') expect(await appStore.getAttribute('href')).toBe(APP_STORE_URL)
      if (device !== 'ios') expect(await play.getAttribute('href')).toBe(`${PLAY_STORE_URL}&referrer=code%3D${codes.get(locale)}`)
      // The code for the app to ask for once, on every phone: on Android too, for when the Play
      // listing's install referrer does not reach the app (issue 49).
      const code = page.getByRole('region', { name: words.codeLabel })
      expect(await code.count()).toBe(1)
      expect(await code.getByText(codes.get(locale) ?? '', { exact: true }).isVisible()).toBe(true)
      expect(await code.getByText(words.codeHint).isVisible()).toBe(true)
      const copy = code.getByRole('button', { name: words.copy })
      // Copy is the script's: without it the code is there to select.
      expect(await copy.isVisible()).toBe(javaScriptEnabled)
      if (javaScriptEnabled) {
        await copy.click()
        await code.getByRole('status').getByText(words.copied).waitFor()
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.get(locale))
      }
      // (axe runs as a script in the page: with JavaScript on only.)
      if (javaScriptEnabled) expect((await axeOn(page).analyze()).violations.map((v) => v.id)).toEqual([])
      expect(problems).toEqual([])
      await page.context().close()
    },
  )

  it.each(LANGUAGES.flatMap((locale) => DEVICES.map((device) => [locale, device] as const)))(
    'fits a 320 px phone whole: %s on %s',
    async (locale, device) => {
      const { page } = await open(locale, device, true, 320)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
      for (const link of await page.getByRole('link').all()) {
        const box = await link.boundingBox()
        expect(box && box.x >= 0 && box.x + box.width <= 320, await link.innerText()).toBe(true)
      }
      await page.context().close()
    },
  )

  it.each(['light', 'dark'] as const)('reads well in the %s scheme (axe, contrast included)', async (colorScheme) => {
    const { page } = await visit(suite.browser, `${suite.server.url}/app/${codes.get('de')}`, {
      userAgent: USER_AGENTS.other,
      viewport: { width: 390, height: 800 },
      colorScheme,
    })
    await page.getByRole('heading', { level: 1 }).waitFor()
    expect((await axeOn(page).analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    await page.context().close()
  })

  it('says a claimed profile is in the app already, in its own language, and an unknown link leads nowhere', async () => {
    const { store } = suite.server.app
    const code = codes.get('fr') ?? ''
    const claimed = await store.app.claim(code, null, (signupId) => ({
      actorId: null,
      actor: 'test',
      action: 'profile claimed',
      target: `signup ${signupId}`,
      detail: null,
      requestId: null,
    }))
    expect(claimed).toMatchObject({ email: 'app-fr@example.com' })
    const words = visitorContent('fr').appLink.gone.claimed
    const { page } = await visit(suite.browser, `${suite.server.url}/app/${code}`, { javaScriptEnabled: false })
    await page.getByRole('heading', { level: 1, name: words.heading }).waitFor()
    expect(await page.getByText(words.text).isVisible()).toBe(true)
    expect(await page.locator('html').getAttribute('lang')).toBe('fr')
    const gone = visitorContent('en').appLink.gone['not-found']
    const unknown = await page.goto(`${suite.server.url}/app/${'B'.repeat(22)}`)
    expect(unknown?.status()).toBe(404)
    await page.getByRole('heading', { level: 1, name: gone.heading }).waitFor()
    await page.context().close()
  })

  it('tells a network that asked for too many links that open nothing to wait, and shows it no profile', async () => {
    const network = { 'x-forwarded-for': '198.51.100.77' }
    for (let i = 0; i < UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE; i++) {
      const answer = await fetch(`${suite.server.url}/app/${String(i).padStart(22, 'C')}`, { headers: network })
      expect(answer.status).toBe(404)
    }
    const words = visitorContent('en').appLink.gone.busy
    const { page } = await visit(suite.browser, `${suite.server.url}/app/${codes.get('de')}`, {
      javaScriptEnabled: false,
      extraHTTPHeaders: network,
      userAgent: USER_AGENTS.android,
    })
    await page.getByRole('heading', { level: 1, name: words.heading }).waitFor()
    expect(await page.getByText(words.text).isVisible()).toBe(true)
    expect(await page.title()).toBe(words.title)
    expect(await page.getByText(codes.get('de') ?? '').count()).toBe(0)
    await page.context().close()
  })
})
