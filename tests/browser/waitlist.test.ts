import type { Page, Route } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { content } from '../../web/content'
import { WAITLIST_TIMEOUT_MS } from '../../web/lib/waitlist-client'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { emailInput, joinButton, readToast, submitEmail, toasts, visit, waitForHydration } from '../support/page'
import { startServer, type TestServer } from '../support/server'
import { row } from '../support/rows'

const { success, failure } = content.waitlist
const successText = `${success.title} ${success.description}`
const failureText = `${failure.title} ${failure.description}`

/** Accepted by the browser's type=email check, refused by the server: longer than 254 characters. */
const tooLongForServer = `${'a'.repeat(60)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`

describe.skipIf(!chromiumAvailable)('joining the waitlist', () => {
  const suite = useServerAndBrowser()

  async function open(target: TestServer = suite.server, before?: (page: Page) => Promise<void>) {
    const { page, problems } = await visit(suite.browser, `${target.url}/`, {}, before)
    await waitForHydration(page)
    return { page, problems }
  }

  const emails = async () => (await suite.server.app.store.list({ limit: 1000 })).map((row) => row.email)

  it('visitor joins the waitlist and sees the thank-you toast; the form is cleared', async () => {
    const { page, problems } = await open()
    await submitEmail(page, 'bella.owner@example.com')
    const toast = await readToast(toasts(page).first())
    expect(toast).toEqual({ text: successText, variant: 'default' })
    expect(await emailInput(page).inputValue()).toBe('')
    expect(await emails()).toContain('bella.owner@example.com')
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('visitor already on the list (in another letter case) is thanked, and stays listed once', async () => {
    await suite.server.app.store.add(row('duke@example.com'))
    const before = await suite.server.app.store.count()
    const { page } = await open()
    await submitEmail(page, 'Duke@Example.com')
    expect(await readToast(toasts(page).first())).toEqual({ text: successText, variant: 'default' })
    expect(await suite.server.app.store.count()).toBe(before)
    await page.context().close()
  })

  it('visitor whose address the server refuses sees the error toast and keeps what was typed', async () => {
    const before = await suite.server.app.store.count()
    const { page } = await open()
    await submitEmail(page, tooLongForServer)
    expect(await readToast(toasts(page).first())).toEqual({ text: failureText, variant: 'destructive' })
    expect(await emailInput(page).inputValue()).toBe(tooLongForServer)
    expect(await suite.server.app.store.count()).toBe(before)
    await page.context().close()
  })

  it('visitor whose connection to the server is gone sees the error toast and can retry', async () => {
    const doomed = await startServer()
    const { page } = await open(doomed)
    // The server goes away for good: stop it and cut the connections the browser keeps alive.
    const stopped = doomed.close()
    doomed.app.server.closeAllConnections()
    await stopped
    await submitEmail(page, 'offline@example.com')
    expect(await readToast(toasts(page).first())).toEqual({ text: failureText, variant: 'destructive' })
    expect(await emailInput(page).inputValue()).toBe('offline@example.com')
    await page.context().close()
  })

  it('visitor waiting 10 seconds without an answer sees the error toast', async () => {
    const { page } = await open(suite.server, async (p) => {
      await p.clock.install()
      // The server takes the request and never answers.
      await p.route('**/rest/v1/waitlist', () => undefined)
    })
    // Time stands still until the test moves it: a busy machine cannot make 9.9 s into 10.
    await page.clock.pauseAt(Date.now() + 60_000)
    await submitEmail(page, 'patient@example.com')
    await page.getByRole('button', { name: content.waitlist.submitting }).waitFor()
    await page.clock.runFor(WAITLIST_TIMEOUT_MS - 100)
    expect(await toasts(page).count()).toBe(0)
    await page.clock.runFor(100)
    expect(await readToast(toasts(page).first())).toEqual({ text: failureText, variant: 'destructive' })
    expect(await emailInput(page).inputValue()).toBe('patient@example.com')
    await page.context().close()
  })

  it('a double click sends one request; the button shows the request is under way', async () => {
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    const posts: string[] = []
    const { page } = await open(suite.server, async (p) => {
      // Hold the request until the test has seen the pending state, then let the real server answer.
      await p.route('**/rest/v1/waitlist', async (route: Route) => {
        posts.push(route.request().postData() ?? '')
        await held
        await route.continue()
      })
    })
    await emailInput(page).fill('eager@example.com')
    await joinButton(page).dblclick()
    const pending = page.getByRole('button', { name: content.waitlist.submitting })
    await pending.waitFor()
    expect(await pending.getAttribute('aria-disabled')).toBe('true')
    // Clicking again and pressing Enter while it is under way sends nothing more. (`force`: Playwright
    // itself would wait for an aria-disabled button; an impatient person does not.)
    await pending.click({ force: true })
    await page.keyboard.press('Enter')
    release()
    expect(await readToast(toasts(page).first())).toEqual({ text: successText, variant: 'default' })
    expect(posts).toEqual(['{"email":"eager@example.com","locale":"en"}'])
    expect(await joinButton(page).getAttribute('aria-disabled')).toBeNull()
    await page.context().close()
  })

  it('a visitor from a campaign link is stored with its source and the referring site, not its page', async () => {
    const context = await suite.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${suite.server.url}/?utm_source=dogshow&utm_medium=flyer&utm_campaign=spring-2027`, {
      referer: 'https://www.breedclub.example/news/2026/members-only?member=42',
    })
    await waitForHydration(page)
    await submitEmail(page, 'from-a-flyer@example.com')
    expect((await readToast(toasts(page).first())).variant).toBe('default')
    const stored = (await suite.server.app.store.list({ limit: 1000, search: 'from-a-flyer' }))[0]
    expect(stored).toMatchObject({
      utm_source: 'dogshow',
      utm_medium: 'flyer',
      utm_campaign: 'spring-2027',
      referrer: 'www.breedclub.example',
    })
    await context.close()
  })

  it("a direct visitor sends only the address and the page's language", async () => {
    const bodies: string[] = []
    const { page } = await open(suite.server, async (p) => {
      p.on('request', (request) => {
        if (request.url().endsWith('/rest/v1/waitlist')) bodies.push(request.postData() ?? '')
      })
    })
    await submitEmail(page, 'direct@example.com')
    await readToast(toasts(page).first())
    expect(bodies).toEqual(['{"email":"direct@example.com","locale":"en"}'])
    await page.context().close()
  })

  it('says next to the form what is kept and why, and links to the privacy section', async () => {
    const { page } = await open()
    expect(await page.getByText(content.waitlist.privacyNote).isVisible()).toBe(true)
    await page.getByRole('link', { name: content.waitlist.privacyLink }).click()
    await page.waitForURL(/#privacy$/)
    expect(await page.getByRole('heading', { name: content.privacy.heading, exact: true }).isVisible()).toBe(true)
    expect(await page.getByRole('contentinfo').getByRole('link', { name: content.footer.privacyLink }).getAttribute('href')).toBe(
      '#privacy',
    )
    await page.context().close()
  })

  it("the browser's own validation stops an empty or malformed address before any request", async () => {
    const requests: string[] = []
    const { page } = await open()
    page.on('request', (request) => {
      if (request.url().includes('/rest/v1/')) requests.push(request.url())
    })
    for (const value of ['', 'not-an-email']) {
      await emailInput(page).fill(value)
      await joinButton(page).click()
      expect(await emailInput(page).evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false)
    }
    expect(requests).toEqual([])
    expect(await toasts(page).count()).toBe(0)
    await page.context().close()
  })
})
