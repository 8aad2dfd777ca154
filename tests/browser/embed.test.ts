// A partner's embed in a real browser, on the partner's own site: another origin, whose CSS hides
// every form, button and input and whose CSP allows no inline style or script and talks only to
// Kennect (docs/partners.md). The script's form shows and joins there, sets no cookie, uses no
// storage, asks nothing of any other host, violates no CSP and moves nothing once shown; the iframe
// is framed by the partner's site only; the plain form works with no script at all.
import { get } from 'node:http'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMBED_FRAME_HEIGHT, EMBED_SCRIPT_PATH, embedPath, embedSessionPath, type PartnerSnippets } from '../../contract/partners'
import { type Locale, LOCALES } from '../../contract/locales'
import { newPartnerKey } from '../../server/partners/fields'
import { pageContent } from '../../web/content'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { type HostSite, startHostSite } from '../support/host-site'
import { STORES } from '../support/stores'

/** Every word the form says, from the page's catalogue: the embed's must be the same. */
const words = (locale: Locale) => pageContent(locale).waitlist
/** Everything fetched before the form is usable (script, stylesheet, words), brotli: docs/partners.md. */
const EMBED_BUDGET_BYTES = 6_000
/** Accepted by the browser's type=email check, refused by the server: longer than 254 characters. */
const TOO_LONG_FOR_SERVER = `${'a'.repeat(60)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`
const HOSTILE_CSS = `button, input, form { display: none !important; all: unset } body { font: 22px/2 Georgia, serif; color: #036 }
.kennect-slot { min-height: ${EMBED_FRAME_HEIGHT.form}px }`

/** What the page collected: CSP violations (the event, in every frame) and layout shifts, each with when. */
const WATCH = () => {
  const seen = { violations: [] as string[], shifts: [] as { value: number; at: number }[] }
  ;(window as unknown as { __seen: typeof seen }).__seen = seen
  document.addEventListener('securitypolicyviolation', (event) => seen.violations.push(`${event.violatedDirective} ${event.blockedURI}`))
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
      seen.shifts.push({ value: entry.value, at: entry.startTime })
  }).observe({ type: 'layout-shift', buffered: true })
}

describe.each(STORES)('a partner’s embed on its own site ($kind)', ({ kind, available }) => {
  const run = available && chromiumAvailable
  // No minimum time: a test types faster than a person (the join's own tests keep it).
  const suite = useServerAndBrowser({ FORM_MIN_SECONDS: '0', MAIL_RATE_PER_SECOND: '0' }, { kind, available: run })
  let club: HostSite
  let stranger: HostSite
  let key = ''
  let partnerId = 0
  let snippets: PartnerSnippets
  // Kennect's address as it gives it (SITE_URL, else where it listens): the script, the iframe and the snippets name it.
  const site = () => suite.server.app.siteUrl()
  const csp = () => `default-src 'self'; script-src 'self' ${site()}; connect-src ${site()}; style-src 'self' ${site()}`

  beforeAll(async () => {
    if (!run) return
    const pages = (path: string) => {
      const url = new URL(path, 'http://host')
      if (url.pathname === '/hostile.css') return { body: HOSTILE_CSS, type: 'text/css' }
      if (url.pathname === '/favicon.ico') return { body: '', type: 'image/x-icon' }
      if (url.pathname === '/thanks') return { body: '<!doctype html><title>Thanks</title><h1>Thank you from the club</h1>' }
      if (url.pathname === '/' || url.pathname === '/reserved') {
        // The data-* values as the club's volunteer typed them (any of them may be missing or wrong).
        const data = [...url.searchParams].map(([name, value]) => ` data-${name}="${value.replace(/"/g, '&quot;')}"`).join('')
        const tag = `<script src="${site()}${EMBED_SCRIPT_PATH}" data-partner="${key}"${data} async></script>`
        // docs/partners.md: a club that keeps the box's room (its own stylesheet's min-height) sees nothing move at all.
        const placed = url.pathname === '/reserved' ? `<div class="kennect-slot">${tag}</div>` : tag
        return {
          headers: { 'content-security-policy': csp() },
          body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Labrador Club</title><link rel="stylesheet" href="/hostile.css"></head>
<body><h1>Labrador Club</h1><p>Be the first to hear when Kennect opens for our breed:</p>
${placed}
<p id="after">Our next meeting is on the first of May.</p></body></html>`,
        }
      }
      if (url.pathname === '/frame')
        return {
          // A host that runs no script at all.
          headers: { 'content-security-policy': `default-src 'self'; script-src 'none'; frame-src ${site()}` },
          body: `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Club</title></head><body><h1>Club</h1>${snippets.iframe}</body></html>`,
        }
      if (url.pathname === '/form')
        return {
          headers: { 'content-security-policy': `default-src 'self'; script-src 'none'` },
          body: `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Club</title></head><body>${snippets.form}</body></html>`,
        }
      return undefined
    }
    club = await startHostSite(pages)
    stranger = await startHostSite(pages)
    key = newPartnerKey()
    partnerId = await suite.server.app.store.partners.add(
      { name: 'Labrador Club', origins: [club.origin], thanks_url: `${club.origin}/thanks`, breed: null, country: null, key },
      { actorId: null, actor: 'test', action: 'partner added', target: null, detail: null, requestId: null },
    )
    const token = 'embed-browser-test-token-0123456789'
    await suite.server.app.store.team.addToken(
      { name: 'test', role: 'owner', tokenHash: (await import('../../server/secrets')).hashToken(token), createdBy: null, expiresAt: null },
      { actorId: null, actor: 'test', action: 'token created', target: null, detail: null, requestId: null },
    )
    const answer = await fetch(`${site()}/admin/api/partners/${partnerId}/snippets?lang=de`, {
      headers: { authorization: `Bearer ${token}` },
    })
    snippets = (await answer.json()) as PartnerSnippets
  })
  afterAll(async () => {
    await club?.close()
    await stranger?.close()
  })

  /** A visitor of the club's page: what crossed the wire, what the console said, what the page saw. */
  async function open(path: string, options: { javaScriptEnabled?: boolean; on?: HostSite } = {}) {
    const context = await suite.browser.newContext({
      javaScriptEnabled: options.javaScriptEnabled ?? true,
      viewport: { width: 390, height: 800 },
    })
    const page = await context.newPage()
    const requests: string[] = []
    const console: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`))
    page.on('pageerror', (error) => console.push(`pageerror: ${error.message}`))
    await page.addInitScript(WATCH)
    await page.goto(`${(options.on ?? club).origin}${path}`)
    return { context, page, requests, console }
  }
  const seen = (page: Page) =>
    page.evaluate(() => (window as unknown as { __seen: { violations: string[]; shifts: { value: number; at: number }[] } }).__seen)
  const noCookieNorStorage = async (context: BrowserContext, page: Page) => {
    expect(await context.cookies()).toEqual([])
    expect(await page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).toEqual(['', 0, 0])
  }

  it.skipIf(!run)(
    'shows its form under hostile CSS and a strict CSP, joins, and leaves no cookie, no other request, no violation, no shift',
    async () => {
      const { context, page, requests, console } = await open('/')
      const email = page.getByRole('textbox', { name: words('en').emailLabel })
      await email.waitFor()
      // The box is laid out whole once shown: from here on nothing on the page may move.
      const shownAt = await page.evaluate(() => performance.now())
      const box = page.locator('kennect-waitlist')
      const height = (await box.boundingBox())?.height ?? 0
      expect(height).toBeGreaterThan(120)
      const button = page.getByRole('button', { name: words('en').submit })
      expect(await button.isVisible()).toBe(true)
      expect(await email.isVisible()).toBe(true)
      // The host's serif at 22px does not reach in: the box speaks in its own system font.
      expect(await email.evaluate((input) => getComputedStyle(input).fontFamily)).not.toMatch(/Georgia/)

      await email.fill('cleo@example.com')
      await button.click()
      await page.getByRole('status').getByText(words('en').success.title).waitFor()
      expect(await page.getByRole('status').innerText()).toBe(`${words('en').success.title} ${words('en').success.description}`)
      expect(await email.inputValue()).toBe('')
      const [stored] = await suite.server.app.store.list({ limit: 1, search: 'cleo@example.com' })
      expect(stored).toMatchObject({ email: 'cleo@example.com', locale: 'en', referrer: new URL(club.origin).host })
      expect((await suite.server.app.store.partners.get(partnerId))?.signups).toBeGreaterThan(0)

      // An address the browser lets through but the join refuses (over 254 characters): what was
      // typed stays, and the status says so, in the space it held.
      await email.fill(TOO_LONG_FOR_SERVER)
      await button.click()
      await page.getByRole('status').getByText(words('en').outcomes.invalid.title).waitFor()
      expect(await email.inputValue()).toBe(TOO_LONG_FOR_SERVER)
      expect((await box.boundingBox())?.height).toBe(height)

      await noCookieNorStorage(context, page)
      const hosts = new Set(requests.map((url) => new URL(url).origin))
      expect([...hosts].sort()).toEqual([club.origin, site()].sort())
      const { violations, shifts } = await seen(page)
      expect(violations).toEqual([])
      expect(console.filter((line) => /Content.Security.Policy|Refused/i.test(line))).toEqual([])
      // The one failed load is the join that refused the long address (the browser logs every 4xx).
      expect(console.filter((line) => line.startsWith('error') || line.startsWith('pageerror'))).toEqual([
        'error: Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ])
      expect(shifts.filter((shift) => shift.at >= shownAt)).toEqual([])
      await context.close()
    },
  )

  it.skipIf(!run)('moves nothing on the page at all where the club keeps the box’s room, as the docs say', async () => {
    const { context, page } = await open('/reserved')
    const email = page.getByRole('textbox', { name: words('en').emailLabel })
    await email.waitFor()
    await email.fill('rosa@example.com')
    await page.getByRole('button', { name: words('en').submit }).click()
    await page.getByRole('status').getByText(words('en').success.title).waitFor()
    expect((await seen(page)).shifts).toEqual([])
    await context.close()
  })

  it.skipIf(!run)('speaks Polish with data-lang="pl", and takes only the data-* values it knows', async () => {
    const { context, page, console } = await open(`/?lang=pl&theme=dark&accent=${encodeURIComponent('#1d4ed8')}&meter=%3Cimg%20src%3Dx%3E`)
    const pl = words('pl')
    await page.getByRole('textbox', { name: pl.emailLabel }).waitFor()
    expect(await page.getByRole('button', { name: pl.submit }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: pl.privacyLink }).getAttribute('href')).toBe(`${site()}/pl/#privacy`)
    const look = await page.getByRole('button', { name: pl.submit }).evaluate((button) => getComputedStyle(button).backgroundColor)
    expect(look).toBe('rgb(29, 78, 216)')
    // Text stays text: no element is made of a data-* value.
    expect(await page.locator('kennect-waitlist').evaluate((host) => host.shadowRoot?.querySelectorAll('img').length)).toBe(0)
    expect(console.filter((line) => /Content.Security.Policy|error/i.test(line))).toEqual([])

    // Anything else (an unknown language, a colour that is not #rrggbb): the browser's language, the brand's colour.
    const other = await open('/?lang=xx&accent=red', {})
    await other.page.getByRole('textbox', { name: words('en').emailLabel }).waitFor()
    expect(await other.page.getByRole('button', { name: words('en').submit }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(
      'rgb(194, 65, 12)',
    )
    await other.context.close()
    await context.close()
  })

  it.skipIf(!run)('is framed by the partner’s site, and refused as a frame by any other (its frame-ancestors)', async () => {
    const onClub = await open('/frame')
    const frame = onClub.page.frameLocator('iframe')
    await frame.getByRole('textbox', { name: words('de').emailLabel }).waitFor()
    // It fits the height the snippet gives it.
    const inner = await frame.locator('body').evaluate((body) => body.scrollHeight)
    expect(inner).toBeLessThanOrEqual(EMBED_FRAME_HEIGHT.form)
    await frame.getByRole('textbox', { name: words('de').emailLabel }).fill('frida@example.com')
    await frame.getByRole('button', { name: words('de').submit }).click()
    await frame.getByRole('status').getByText(words('de').success.title).waitFor()
    expect(await suite.server.app.store.list({ limit: 1, search: 'frida@' })).toHaveLength(1)
    await noCookieNorStorage(onClub.context, onClub.page)
    await onClub.context.close()

    const elsewhere = await open('/frame', { on: stranger })
    await elsewhere.page
      .waitForEvent('console', { predicate: (message) => /frame-ancestors/.test(message.text()), timeout: 10_000 })
      .catch(() => undefined)
    expect(elsewhere.console.some((line) => /frame-ancestors/.test(line))).toBe(true)
    expect(await elsewhere.page.frameLocator('iframe').getByRole('textbox').count()).toBe(0)
    await elsewhere.context.close()
  })

  it.skipIf(!run)('fits the iframe’s height in the snippet at 320 px wide in every language, with and without the meter', async () => {
    const audit = { actorId: null, actor: 'test', action: 'partner added' as const, target: null, detail: null, requestId: null }
    const withMeter = newPartnerKey()
    await suite.server.app.store.partners.add(
      { name: 'Meter Club', origins: [club.origin], thanks_url: null, breed: 'labrador-retriever', country: 'DE', key: withMeter },
      audit,
    )
    const context = await suite.browser.newContext({ viewport: { width: 320, height: 900 } })
    const page = await context.newPage()
    const tallest: Record<string, number> = {}
    for (const [kind, partnerKey] of [
      ['form', key],
      ['meter', withMeter],
    ] as const)
      for (const locale of LOCALES) {
        await page.goto(`${site()}${embedPath(partnerKey)}?lang=${locale}&sent=expired`)
        const height = await page.evaluate(() => document.body.scrollHeight)
        tallest[kind] = Math.max(tallest[kind] ?? 0, height)
        expect(height, `${kind} in ${locale}`).toBeLessThanOrEqual(EMBED_FRAME_HEIGHT[kind])
      }
    globalThis.console.log(`the iframe at 320 px: ${JSON.stringify(tallest)} px at most (snippet: ${JSON.stringify(EMBED_FRAME_HEIGHT)})`)
    await context.close()
  })

  it.skipIf(!run)('takes a sign-up through the plain form with no script at all, and answers it 303 to the thanks URL', async () => {
    const { context, page, requests } = await open('/form', { javaScriptEnabled: false })
    await page.getByRole('textbox', { name: words('de').emailLabel }).fill('nora@example.com')
    await page.getByRole('button', { name: words('de').submit }).click()
    await page.waitForURL(`${club.origin}/thanks`)
    expect(await page.getByRole('heading').innerText()).toBe('Thank you from the club')
    expect(requests).toEqual([`${club.origin}/form`, `${site()}/embed/${key}/join`, `${club.origin}/thanks`])
    const [stored] = await suite.server.app.store.list({ limit: 1, search: 'nora@example.com' })
    expect(stored).toMatchObject({ email: 'nora@example.com', locale: 'de', referrer: new URL(club.origin).host })
    await noCookieNorStorage(context, page)
    await context.close()
  })

  it.skipIf(!run)(`fetches at most ${EMBED_BUDGET_BYTES.toLocaleString('en')} bytes (brotli) before its form is usable`, async () => {
    const { context, page, requests } = await open('/')
    await page.getByRole('textbox', { name: words('en').emailLabel }).waitFor()
    const fromKennect = requests.filter((url) => url.startsWith(site()))
    expect(fromKennect.map((url) => new URL(url).pathname)).toEqual([EMBED_SCRIPT_PATH, embedSessionPath(key)])
    let total = 0
    for (const url of fromKennect) {
      const bytes = await brotliSize(url, club.origin)
      console.log(`budget: ${new URL(url).pathname.replace(key, 'KEY')} ${bytes} bytes brotli`)
      total += bytes
    }
    console.log(`budget: the embed, ${total} bytes brotli before its form is usable (budget ${EMBED_BUDGET_BYTES})`)
    expect(total).toBeLessThanOrEqual(EMBED_BUDGET_BYTES)
    await context.close()
  })
})

/** The bytes of an answer as they cross the wire in brotli (with the partner's Origin, as the script asks). */
const brotliSize = (url: string, origin: string) =>
  new Promise<number>((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'br', origin } }, (answer) => {
      if (answer.headers['content-encoding'] !== 'br')
        reject(new Error(`${url} came as ${answer.headers['content-encoding'] ?? 'identity'}`))
      let bytes = 0
      answer.on('data', (chunk: Buffer) => (bytes += chunk.length))
      answer.on('end', () => resolve(bytes))
      answer.on('error', reject)
    }).on('error', reject)
  })
