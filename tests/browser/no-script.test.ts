// The waitlist with JavaScript disabled in the browser (docs/decisions/003-no-script-form.md): on our server the form posts to
// /join and the page shows the outcome by CSS alone; on a page built for Supabase, the browser
// still checks the address and the page says JavaScript is needed.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content } from '../../web/content'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable, launchChromium } from '../support/chromium'
import { emailInput, joinButton, readToast, toasts, visit, waitForHydration } from '../support/page'
import { startServer, type TestServer } from '../support/server'

const { outcomes } = content.waitlist
const outcomeText = (outcome: keyof typeof outcomes) => `${outcomes[outcome].title} ${outcomes[outcome].description}`
/** Accepted by the browser's type=email check, refused by the server: longer than 254 characters. */
const tooLongForServer = `${'a'.repeat(60)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`

/** The messages of the no-script outcomes a visitor can see now, as read. */
async function visibleOutcomes(page: Page): Promise<string[]> {
  const seen: string[] = []
  for (const outcome of Object.keys(outcomes)) {
    const message = page.locator(`#waitlist-${outcome}`)
    if (await message.isVisible()) seen.push((await message.innerText()).replace(/\s+/g, ' ').trim())
  }
  return seen
}

async function openWithoutScript(browser: Browser, url: string) {
  const visitor = await visit(browser, url, { javaScriptEnabled: false })
  expect(await visibleOutcomes(visitor.page)).toEqual([])
  return visitor
}

describe.skipIf(!chromiumAvailable)('the form without JavaScript, on our server', () => {
  // No minimum time here (a test types faster than a person); the next suite keeps the default.
  const suite = useServerAndBrowser({ FORM_MIN_SECONDS: '0' })
  const emails = async () => (await suite.server.app.store.list({ limit: 1000 })).map((row) => row.email)

  it('joins: the page comes back with the thank-you message, shown without any script', async () => {
    const { page, problems } = await openWithoutScript(suite.browser, `${suite.server.url}/?utm_source=flyer`)
    await emailInput(page).fill('nojs.visitor@example.com')
    await joinButton(page).click()
    await page.waitForURL(/#waitlist-joined$/)
    expect(await visibleOutcomes(page)).toEqual([outcomeText('joined')])
    expect(await page.locator('#waitlist-joined').isVisible()).toBe(true)
    const [row] = await suite.server.app.store.list({ limit: 10, search: 'nojs.visitor' })
    expect(row).toMatchObject({ email: 'nojs.visitor@example.com', utm_source: 'flyer' })
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('an address the browser lets through but the server refuses: the page asks to check it', async () => {
    const { page } = await openWithoutScript(suite.browser, `${suite.server.url}/`)
    await emailInput(page).fill(tooLongForServer)
    await joinButton(page).click()
    await page.waitForURL(/#waitlist-invalid$/)
    expect(await visibleOutcomes(page)).toEqual([outcomeText('invalid')])
    expect(await emails()).not.toContain(tooLongForServer)
    await page.context().close()
  })

  it('a malformed address is stopped by the browser: nothing is sent', async () => {
    const { page } = await openWithoutScript(suite.browser, `${suite.server.url}/`)
    const posts: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url())
    })
    await emailInput(page).fill('not-an-address')
    await joinButton(page).click()
    expect(await emailInput(page).evaluate((input: HTMLInputElement) => input.validity.typeMismatch)).toBe(true)
    expect(page.url()).toBe(`${suite.server.url}/`)
    expect(posts).toEqual([])
    await page.context().close()
  })

  it('a bot filling the hidden field is thanked, and nothing is stored', async () => {
    const { page } = await openWithoutScript(suite.browser, `${suite.server.url}/`)
    // People never see the field: it is off-screen, out of the tab order and hidden from readers.
    const honeypot = page.locator('input[name="website"]')
    expect(await honeypot.getAttribute('tabindex')).toBe('-1')
    const box = await honeypot.boundingBox()
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(0)
    expect(await page.getByRole('textbox', { name: content.waitlist.honeypotLabel }).count()).toBe(0)
    await honeypot.fill('https://spam.example', { force: true })
    await emailInput(page).fill('nojs.bot@example.com')
    await joinButton(page).click()
    await page.waitForURL(/#waitlist-joined$/)
    expect(await visibleOutcomes(page)).toEqual([outcomeText('joined')])
    expect(await emails()).not.toContain('nojs.bot@example.com')
    await page.context().close()
  })

  it('with JavaScript, the hidden field filled: the thank-you toast, and nothing is sent', async () => {
    const { page } = await visit(suite.browser, `${suite.server.url}/`)
    await waitForHydration(page)
    const posts: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url())
    })
    await page.locator('input[name="website"]').fill('https://spam.example', { force: true })
    await emailInput(page).fill('js.bot@example.com')
    await joinButton(page).click()
    expect(await readToast(toasts(page).first())).toEqual({ text: outcomeText('joined'), variant: 'default' })
    expect(posts).toEqual([])
    expect(await emails()).not.toContain('js.bot@example.com')
    await page.context().close()
  })
})

describe.skipIf(!chromiumAvailable)('the form without JavaScript, sent sooner than a person could', () => {
  // The longest minimum the configuration allows: a test that types in well under a minute is
  // always "too fast", however busy the machine (with the 2 s default it was not, once in two runs).
  const suite = useServerAndBrowser({ FORM_MIN_SECONDS: '60' })

  it('shows the thank-you message and stores nothing', async () => {
    const { page } = await openWithoutScript(suite.browser, `${suite.server.url}/`)
    await emailInput(page).fill('too.fast@example.com')
    await joinButton(page).click()
    await page.waitForURL(/#waitlist-joined$/)
    expect(await visibleOutcomes(page)).toEqual([outcomeText('joined')])
    expect(await suite.server.app.store.count()).toBe(0)
    await page.context().close()
  })
})

describe.skipIf(!chromiumAvailable)('the page built for a Supabase project, without JavaScript', () => {
  let out = ''
  let server: TestServer | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'kennect-supabase-page-'))
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--page-only', '--out', out], {
      env: {
        ...process.env,
        VITE_WAITLIST_URL: 'https://project.supabase.co',
        VITE_WAITLIST_ANON_KEY: 'anon-key',
        SITE_URL: 'https://kennect.example',
      },
      encoding: 'utf8',
    })
    if (build.status !== 0) throw new Error(`the Supabase page did not build:\n${build.stderr}`)
    server = await startServer({}, 'sqlite', { pageRoot: out })
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    rmSync(out, { recursive: true, force: true })
  })

  it('says JavaScript is needed; the browser still checks the address, and nothing is sent', async () => {
    if (!browser || !server) throw new Error('not started')
    const { page, problems } = await visit(browser, `${server.url}/`, { javaScriptEnabled: false })
    const requests: string[] = []
    // What the form could cause: a navigation or a post (the favicon may load at any moment).
    page.on('request', (request) => {
      if (request.isNavigationRequest() || request.method() !== 'GET') requests.push(`${request.method()} ${request.url()}`)
    })
    // (Text inside <noscript> is not found by getByText: the element is read directly.)
    const notice = page.locator('#waitlist noscript p')
    expect(await notice.isVisible()).toBe(true)
    expect(await notice.innerText()).toBe(content.waitlist.needsScript)
    expect(await page.locator('form input[name="token"]').count()).toBe(0)
    // The build's SITE_URL is the address the page gives as its own.
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe('https://kennect.example/')
    expect(await page.locator('[id^="waitlist-"][role="status"]').count()).toBe(0)
    await emailInput(page).fill('not-an-address')
    await joinButton(page).click()
    expect(await emailInput(page).evaluate((input: HTMLInputElement) => input.validity.typeMismatch)).toBe(true)
    await emailInput(page).fill('valid@example.com')
    await joinButton(page).click()
    await page.waitForTimeout(300) // a navigation, had there been one, would have started by now
    expect(requests).toEqual([])
    expect(page.url()).toBe(`${server.url}/`)
    expect(await server.app.store.count()).toBe(0)
    expect(problems).toEqual([])
    await page.context().close()
  })
})
