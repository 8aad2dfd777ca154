// Every language's page on a narrow phone, down to 320 px: nothing wider than the screen (no
// sideways scrolling), the header's way to the form and its language switcher in sight, and no
// word cut: none past the screen's edge, clipped by its box or sticking out of it, none broken
// over two lines but at a hyphen, and no select showing its chosen words cut short. The same for
// the 404 page, the visitor's own page and an app link's page, and no word cut on wider screens either.
import type { Page } from 'playwright-core'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { LOCALES, type Locale, localePath } from '../../contract/locales'
import { visitorContent } from '../../web/visitor/content'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { joinWithLink } from '../support/page-links'
import { USER_AGENTS } from '../support/devices'
import { resizeTo } from '../support/page'
import { runSql, sameSql } from '../support/team'

/**
 * Runs in the page: each piece of text a person sees whose words are cut, said in words ('"Geprüfte
 * Gesundheitsnachweise" past the screen (101–334)'). Text inside a box of 1 px that clips it is
 * for screen readers only (sr-only, the form's honeypot) and is left out. A word may go on to the
 * next line only at a hyphen, a soft one (U+00AD) included. A select shows its chosen option cut
 * when a copy of it holding only that option, as wide as it needs, is wider than it.
 */
function cutWords(): string[] {
  const found: string[] = []
  const screen = document.documentElement.clientWidth
  const said = (node: Node) => `"${(node.textContent ?? '').trim().slice(0, 40)}"`
  const range = document.createRange()
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement
    if (!parent || !node.textContent?.trim() || !parent.checkVisibility({ visibilityProperty: true })) continue
    range.selectNodeContents(node)
    const lines = [...range.getClientRects()].filter((line) => line.width > 0)
    const outside = (box: DOMRect) => lines.some((line) => line.left < box.left - 1 || line.right > box.right + 1)
    const problems: string[] = []
    let forScreenReaders = false
    let ownBox = false
    for (let element: Element | null = parent; element && element !== document.documentElement; element = element.parentElement) {
      const style = getComputedStyle(element)
      const box = element.getBoundingClientRect()
      // The first box that is not a run of text: its words must stay inside it.
      if (!ownBox && style.display !== 'inline' && style.display !== 'contents') {
        ownBox = true
        if (outside(box)) problems.push(`${said(node)} overflows its ${element.tagName.toLowerCase()}`)
      }
      if (style.overflowX !== 'visible') {
        if (box.width <= 1 || box.height <= 1) forScreenReaders = true
        else if (outside(box)) problems.push(`${said(node)} clipped by its ${element.tagName.toLowerCase()}`)
      }
    }
    if (forScreenReaders) continue
    found.push(...problems)
    for (const line of lines)
      if (line.left < -0.5 || line.right > screen + 0.5)
        found.push(`${said(node)} past the screen (${Math.round(line.left)}–${Math.round(line.right)})`)
    // A word goes on to the next line only after a hyphen, a soft one included (the hyphen the
    // browser then draws is counted with the next letter: each letter's line is its last box's).
    const text = node.textContent ?? ''
    for (const word of text.matchAll(/\S{2,}/g)) {
      let before: { at: number; top: number } | undefined
      for (let at = word.index; at < word.index + word[0].length; at += 1) {
        range.setStart(node, at)
        range.setEnd(node, at + 1)
        const glyph = [...range.getClientRects()].filter((part) => part.width > 0).at(-1)
        if (!glyph) continue
        if (
          before &&
          Math.abs(glyph.top - before.top) > glyph.height / 2 &&
          !/[-\u00ad\u2010\u2013\u2014/]/.test(text.slice(before.at, at))
        )
          found.push(`"${word[0]}" broken over two lines`)
        before = { at, top: glyph.top }
      }
    }
  }
  for (const select of document.querySelectorAll('select')) {
    const chosen = select.selectedOptions[0]
    if (!chosen || !select.checkVisibility()) continue
    const needed = select.cloneNode(false) as HTMLSelectElement
    needed.style.cssText = 'position:absolute;visibility:hidden;width:auto'
    needed.append(chosen.cloneNode(true))
    select.after(needed)
    if (needed.offsetWidth > select.offsetWidth)
      found.push(`"${chosen.text}" cut in its select (${needed.offsetWidth} > ${select.offsetWidth})`)
    needed.remove()
  }
  return found
}

/** What a person sees cut on the page as it is now. */
const cutOn = (page: Page) => page.evaluate(cutWords)
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth)
/**
 * The header's links and its language switcher that are not shown or reach past the screen's
 * edges, by their words, read in one round trip (not two per item).
 */
const headerItemsOffScreen = (page: Page, width: number) =>
  page.$$eval(
    'header a, header summary',
    (items, screen) =>
      items.flatMap((item) => {
        const words = (item as HTMLElement).innerText
        if (item.getClientRects().length === 0) return [`${words} not shown`]
        const box = item.getBoundingClientRect()
        return box.x < 0 || box.right > screen ? [`${words} (${Math.round(box.x)}–${Math.round(box.right)})`] : []
      }),
    width,
  )

describe.skipIf(!chromiumAvailable)('the page on a narrow phone', () => {
  const suite = useServerAndBrowser({ MAIL_RATE_PER_SECOND: '0' })

  // Each language's landing page is loaded once per group of widths, at its narrowest, and the
  // window is then made wider, as a phone turned or a window dragged does: the page's layout is
  // CSS's answer to the width at each step (a page load costs about three times a resize here).
  // A group's page is closed after its widest step, and all of them after a failed step (the
  // next width then starts from a fresh load).
  const loaded = new Map<string, Page>()
  const closeAll = async () => {
    const pages = [...loaded.values()]
    loaded.clear()
    for (const page of pages) await page.close().catch(() => undefined)
  }
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await closeAll()
  })
  afterAll(closeAll)
  async function landingAt(locale: Locale, widths: readonly number[], width: number): Promise<Page> {
    const key = `${locale} ${widths.join(' ')}`
    let page = loaded.get(key)
    if (!page || width === widths[0]) {
      await page?.close()
      page = await suite.browser.newPage({ viewport: { width, height: 800 } })
      loaded.set(key, page)
      await page.goto(`${suite.server.url}${localePath(locale)}`)
      expect(await page.evaluate(() => window.innerWidth)).toBe(width)
    } else await resizeTo(page, width, 800) // which checks the width the page sees
    return page
  }
  /** Closes a group's page once its widest step has passed. */
  async function doneAt(locale: Locale, widths: readonly number[], width: number): Promise<void> {
    if (width !== widths.at(-1)) return
    const key = `${locale} ${widths.join(' ')}`
    await loaded.get(key)?.close()
    loaded.delete(key)
  }

  const PHONES = [320, 360, 390] as const
  it.each(LOCALES.flatMap((locale) => PHONES.map((width) => [locale, width] as const)))(
    '%s at %i px scrolls only down and cuts no word',
    async (locale, width) => {
      const page = await landingAt(locale, PHONES, width)
      expect(await pageWidth(page)).toBeLessThanOrEqual(width)
      expect(await page.locator('header a, header summary').count()).toBeGreaterThan(0)
      expect(await headerItemsOffScreen(page, width)).toEqual([])
      expect(await cutOn(page)).toEqual([])
      await doneAt(locale, PHONES, width)
    },
  )

  const WIDER = [768, 1024, 1280] as const
  it.each(LOCALES.flatMap((locale) => WIDER.map((width) => [locale, width] as const)))(
    '%s at %i px cuts no word either',
    async (locale, width) => {
      const page = await landingAt(locale, WIDER, width)
      expect(await pageWidth(page)).toBeLessThanOrEqual(width)
      expect(await cutOn(page)).toEqual([])
      await doneAt(locale, WIDER, width)
    },
  )

  it.each(LOCALES)('shows the %s 404 page whole at 320 px', async (locale) => {
    const page = await suite.browser.newPage({ viewport: { width: 320, height: 640 } })
    const answer = await page.goto(`${suite.server.url}${localePath(locale)}no-such-page`)
    expect(answer?.status()).toBe(404)
    expect(await pageWidth(page)).toBeLessThanOrEqual(320)
    expect(await cutOn(page)).toEqual([])
    await page.close()
  })

  it.each(LOCALES.flatMap((locale) => (['ios', 'other'] as const).map((device) => [locale, device] as const)))(
    "shows the %s app link's page whole at 320 px (%s)",
    async (locale, device) => {
      const { id } = await joinWithLink(suite.server, `narrow-app-${locale}-${device}@example.com`, { locale })
      // An app link as a campaign mail's claim makes one (the outbox is not needed to see its page).
      const code = `${locale}${device}`.padEnd(22, 'x')
      await runSql(suite.server, sameSql('INSERT INTO app_links (signup_id, code) VALUES (?, ?)'), [id, code])
      const page = await suite.browser.newPage({ viewport: { width: 320, height: 640 }, userAgent: USER_AGENTS[device] })
      await page.goto(`${suite.server.url}/app/${code}`)
      expect(await pageWidth(page)).toBeLessThanOrEqual(320)
      expect(await cutOn(page)).toEqual([])
      await page.close()
    },
  )

  it.each(LOCALES)("shows the %s visitor's page whole at 320 px, each choice of what they bring readable", async (locale) => {
    const { token } = await joinWithLink(suite.server, `narrow-${locale}@example.com`, { locale })
    const words = visitorContent(locale).profile
    const page = await suite.browser.newPage({ viewport: { width: 320, height: 640 } })
    await page.goto(`${suite.server.url}/me/${token}`)
    expect(await pageWidth(page)).toBeLessThanOrEqual(320)
    expect(await cutOn(page)).toEqual([])
    // Each side a breeder can choose, and each club, as the closed select then shows it.
    const side = page.getByRole('combobox', { name: words.sideLabel(1) })
    for (const value of await side.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))) {
      await side.selectOption(value)
      expect(await cutOn(page), value).toEqual([])
    }
    const club = page.getByRole('combobox', { name: words.club })
    for (const value of await club.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))) {
      await club.selectOption(value)
      expect(await cutOn(page), value).toEqual([])
    }
    await page.close()
  })
})
