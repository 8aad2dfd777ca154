// Webhooks on the admin page, as an owner sets one up: the endpoint added with its events, the
// secret shown once and verifying what the receiver gets, a test event, the delivery log, a
// failed delivery sent again, an endpoint answering 410 disabled with its reason in words, and the
// view passing axe at 390 px.
import { afterEach, describe, expect, it } from 'vitest'
import { adminContent } from '../support/admin-words'
import { axeOn } from '../support/axe'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { startReceiver, type Receiver } from '../support/receiver'
import { ownerIn } from '../support/team'

const copy = adminContent.webhooks

describe.skipIf(!chromiumAvailable)('webhooks on the admin page', () => {
  const suite = useServerAndBrowser({ WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCALE: '0.001' })
  let receiver: Receiver | undefined
  afterEach(async () => {
    await receiver?.close()
  })

  it('adds an endpoint, shows its secret once, sends a test event, and sends a failed delivery again', async () => {
    receiver = await startReceiver()
    receiver.answer((n) => ({ status: n === 0 ? 500 : 204 }))
    const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 } })
    await ownerIn(context, suite.server)
    const page = await context.newPage()
    await page.goto(`${suite.server.url}/admin/webhooks`)
    await page.getByText(copy.none).waitFor()
    await page.getByLabel(copy.url).fill(receiver.url)
    await page.getByRole('checkbox', { name: 'signup.created' }).check()
    await page.getByRole('button', { name: copy.save }).click()
    const secret = await page.getByLabel(copy.secret).inputValue()
    expect(secret).toMatch(/^whsec_/)
    receiver.secrets.push(secret)
    await page.getByText(receiver.url, { exact: true }).waitFor()
    // A sign-up: its first delivery fails (500), the retry delivers.
    await fetch(`${suite.server.url}/rest/v1/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'hook@example.com' }),
    })
    await receiver.until((got) => got.length === 1)
    expect(receiver.received[0]).toMatchObject({ type: 'signup.created', verifiedBy: [secret] })
    await page.getByRole('button', { name: copy.test }).click()
    await page.getByRole('status').getByText(copy.tested).waitFor()
    await receiver.until((got) => got.some((r) => r.type === 'webhook.test'))
    // The log: the failed attempt, then the delivered ones; the failed one's delivery sent again.
    // The attempts are recorded as their answers come back: wait for the third.
    const [made] = await suite.server.app.store.webhooks.endpoints()
    for (let i = 0; i < 100 && (await suite.server.app.store.webhooks.attempts(made?.id ?? 0, { limit: 10 })).length < 3; i++)
      await new Promise((resolve) => setTimeout(resolve, 50))
    await page.reload()
    await page.locator('summary', { hasText: copy.log }).click()
    const log = page.getByRole('region', { name: copy.logCaption(receiver.url) })
    await log.getByRole('row').nth(3).waitFor()
    const rows = (await log.getByRole('row').allInnerTexts()).map((row) => row.replace(/\s+/g, ' '))
    expect(rows.some((row) => / signup\.created 1 500 · delivered /.test(row))).toBe(true)
    expect(rows.some((row) => / signup\.created 2 204 · delivered /.test(row))).toBe(true)
    await log
      .getByRole('button', { name: /^Send signup\.created of .* again$/ })
      .first()
      .click()
    await page.getByRole('status').getByText(copy.resent(1)).waitFor()
    await receiver.until((got) => got.filter((r) => r.type === 'signup.created').length === 2)
    const [first, again] = receiver.received.filter((r) => r.type === 'signup.created')
    expect(again?.id).toBe(first?.id) // the same webhook-id
    // An endpoint that answers 410 Gone is disabled, and the view says why in words, not a code.
    receiver.answer(() => ({ status: 410 }))
    await fetch(`${suite.server.url}/rest/v1/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'gone@example.com' }),
    })
    await expect.poll(async () => (await suite.server.app.store.webhooks.endpoint(made?.id ?? 0))?.enabled).toBe(false)
    await page.reload()
    await page.getByText(`${copy.disabled} · ${copy.disabledReason('gone')}`, { exact: true }).waitFor()
    expect(copy.disabledReason('gone')).toBe('the endpoint answered 410 Gone')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    const results = await axeOn(page).analyze()
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    await context.close()
  })
})
