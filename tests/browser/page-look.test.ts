// What a visitor sees beyond the spec's sections (docs/requirements.md, "The page beyond the
// spec"): the coming-soon badge, the dogs, the header that leads to the form on a phone, the typo
// hint under the e-mail field, and no filler.
import type { Page, Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { content } from '../../web/content'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { emailInput, joinButton, readToast, toasts, visit, waitForHydration } from '../support/page'

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true }
const DESKTOP = { viewport: { width: 1280, height: 800 } }

/** Every layout shift the page reports from its first paint on (the CLS's raw entries). */
async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: number[] = []
    ;(window as unknown as { shifts: number[] }).shifts = shifts
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value)
    }).observe({ type: 'layout-shift', buffered: true })
  })
}
const layoutShifts = (page: Page) => page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)

describe.skipIf(!chromiumAvailable)('the page beyond the spec', () => {
  const suite = useServerAndBrowser()

  it('says the app is coming soon on its App Store badge, which still leads to the form', async () => {
    const { page } = await visit(suite.browser, `${suite.server.url}/`, DESKTOP)
    const badge = page.getByRole('link', { name: content.hero.badge.label })
    expect(await badge.innerText()).toMatch(/^Coming soon on the\s+App Store$/)
    expect(await badge.getAttribute('href')).toBe(`#${content.waitlist.id}`)
    expect(await page.locator('body').innerText()).not.toMatch(/download on/i)
    await page.context().close()
  })

  it('shows dogs in the hero, How It Works and the waitlist, hidden from screen readers', async () => {
    const { page } = await visit(suite.browser, `${suite.server.url}/`, DESKTOP)
    // A drawing, not an icon: an SVG of several colours in the page, or a drawing's file (decorative, alt="").
    const drawings = (selector: string) =>
      page.locator(selector).evaluate((section) => [
        ...[...section.querySelectorAll('svg')]
          .filter((svg) => svg.getBoundingClientRect().width >= 40)
          .filter((svg) => new Set([...svg.querySelectorAll('[fill]')].map((shape) => shape.getAttribute('fill'))).size >= 3)
          .map((svg) => ({ inline: true, hidden: svg.closest('[aria-hidden="true"]') !== null })),
        ...[...section.querySelectorAll('img')]
          .filter((img) => img.getAttribute('src')?.startsWith('/art/'))
          .map((img) => ({ inline: false, hidden: img.getAttribute('alt') === '' || img.closest('[aria-hidden="true"]') !== null })),
      ])
    const hero = await drawings('section[aria-labelledby="hero-heading"]')
    // The hero's dog is in the HTML: nothing to fetch before the first paint.
    expect(hero.filter((art) => art.inline).length).toBeGreaterThan(0)
    for (const selector of [`#${content.howItWorks.id}`, `#${content.waitlist.id}`]) {
      expect((await drawings(selector)).length, selector).toBeGreaterThan(0)
    }
    for (const art of [...hero, ...(await drawings('main'))]) expect(art.hidden).toBe(true)
    await page.context().close()
  })

  it.each([390, 1280])('has no filler figures, and at %i px no trust card or testimonial holds empty space', async (width) => {
    const { page } = await visit(suite.browser, `${suite.server.url}/`, { viewport: { width, height: 900 } })
    // About says what a profile holds, not counts ("1 profile", "4 badges", "24/7" were its tiles).
    const about = await page.locator(`#${content.about.id}`).innerText()
    for (const filler of ['1 profile', '4 badges', '24/7']) expect(about).not.toContain(filler)
    for (const item of content.about.profile.items) expect(about).toContain(item.title)
    // The five trust claims are still a list of five for a screen reader, the testimonial after them.
    const trust = page.locator(`#${content.trust.id}`)
    expect(await trust.getByRole('list').getByRole('listitem').count()).toBe(content.trust.items.length)
    // Each card's words fill it: the space between its first and last line and its padding is the card.
    const fill = await trust.locator('li, figure').evaluateAll((cards) =>
      cards.map((card) => {
        const boxes = [...card.querySelectorAll('*')].map((child) => child.getBoundingClientRect()).filter((box) => box.height > 0)
        const style = getComputedStyle(card)
        const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom)
        const words = Math.max(...boxes.map((box) => box.bottom)) - Math.min(...boxes.map((box) => box.top)) + padding
        return { card: card.textContent?.slice(0, 30), fill: words / card.getBoundingClientRect().height }
      }),
    )
    expect(fill.length).toBe(content.trust.items.length + 1)
    for (const { card, fill: share } of fill) expect(share, card ?? '').toBeGreaterThan(0.85)
    await page.context().close()
  })

  it('keeps the way to the form at the top of a phone screen while scrolling, shifting nothing', async () => {
    const { page } = await visit(suite.browser, `${suite.server.url}/`, PHONE, watchLayoutShifts)
    await waitForHydration(page)
    const banner = page.getByRole('banner')
    const join = banner.getByRole('link', { name: content.header.join })
    expect(await join.getAttribute('href')).toBe(`#${content.waitlist.id}`)
    for (const y of [2_000, 5_000]) {
      await page.evaluate((to) => window.scrollTo({ top: to, behavior: 'instant' }), y)
      const box = await join.boundingBox()
      expect(box?.y).toBeGreaterThanOrEqual(0)
      expect(box?.y).toBeLessThan(56)
      expect(await join.isVisible()).toBe(true)
    }
    // A keyboard reaches it second (after the name), and Enter takes the visitor to the form.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }))
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(content.header.label)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(content.header.join)
    await page.keyboard.press('Enter')
    await page.waitForURL(new RegExp(`#${content.waitlist.id}$`))
    await page.waitForFunction(() => {
      const field = document.getElementById('waitlist-email')?.getBoundingClientRect()
      const header = document.querySelector('header')?.getBoundingClientRect()
      return field !== undefined && header !== undefined && field.top > header.bottom && field.bottom < window.innerHeight
    })
    expect(await layoutShifts(page)).toEqual([])
    await page.context().close()
  })

  it('suggests gmail.com for gmial.com under the field, accepted with one tap, sending nothing', async () => {
    const { page, problems } = await visit(suite.browser, `${suite.server.url}/`, PHONE)
    await waitForHydration(page)
    const sent: Request[] = []
    page.on('request', (request) => sent.push(request))
    const before = await suite.server.app.store.count()
    const hint = page.locator('#email-typo-hint')
    const field = emailInput(page)
    expect(await field.getAttribute('aria-describedby')).toBe('email-typo-hint')
    expect(await hint.getAttribute('role')).toBe('status')

    await field.scrollIntoViewIfNeeded()
    await field.focus()
    const buttonBefore = await joinButton(page).boundingBox()
    await field.pressSequentially('ada@gmial.com')
    // After a pause in typing, without leaving the field.
    await hint.getByText(content.waitlist.typo.question.replace('{email}', 'ada@gmail.com')).waitFor()
    // Under the field, and it moved nothing: the button is where it was before the hint appeared.
    const [fieldBox, hintBox, buttonBox] = await Promise.all([field.boundingBox(), hint.boundingBox(), joinButton(page).boundingBox()])
    expect(hintBox!.y).toBeGreaterThanOrEqual(fieldBox!.y + fieldBox!.height - 1)
    expect(buttonBox).toEqual(buttonBefore)
    const accept = hint.getByRole('button', { name: content.waitlist.typo.accept.replace('{email}', 'ada@gmail.com') })
    await accept.tap()
    expect(await field.inputValue()).toBe('ada@gmail.com')
    expect(await field.evaluate((input) => input === document.activeElement)).toBe(true)
    expect(await hint.innerText()).toBe('')
    // A correct address gets no hint, on leaving the field either.
    await field.blur()
    expect(await hint.innerText()).toBe('')

    // Nothing leaves with the address: the only requests are the hint's script and the drawings the field scrolled near.
    expect(sent.filter((request) => request.method() !== 'GET' || /ada|gmial|gmail/.test(request.url())).map((r) => r.url())).toEqual([])
    expect(await suite.server.app.store.count()).toBe(before)
    expect(problems).toEqual([])
    await page.context().close()
  })

  it('never blocks: an address the hint doubts joins as typed', async () => {
    const { page } = await visit(suite.browser, `${suite.server.url}/`, PHONE)
    await waitForHydration(page)
    await emailInput(page).fill('bo@hotmial.com')
    await joinButton(page).click()
    const { success } = content.waitlist
    expect(await readToast(toasts(page).first())).toEqual({ text: `${success.title} ${success.description}`, variant: 'default' })
    const emails = (await suite.server.app.store.list({ limit: 1000 })).map((row) => row.email)
    expect(emails).toContain('bo@hotmial.com')
    await page.context().close()
  })
})
