// What a browser test needs to act as a visitor: console watching, hydration, and the toasts.
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core'
import { content } from '../../web/content'

export const HOTKEY_LABEL = content.toaster.regionLabel.replace('{hotkey}', 'F8')

export interface Visit {
  page: Page
  /** Console errors and warnings and uncaught errors seen so far. */
  problems: string[]
}

/**
 * A new visitor: its own context (storage, JavaScript on or off, media, clock), the console watched,
 * the page loaded. `before` runs before the page loads (to install a clock or a route). The test
 * ends the visit with `page.context().close()`.
 */
export async function visit(
  browser: Browser,
  url: string,
  options: BrowserContextOptions = {},
  before?: (page: Page) => Promise<void>,
): Promise<Visit> {
  const context = await browser.newContext(options)
  const page = await context.newPage()
  const problems = watchConsole(page)
  await before?.(page)
  await page.goto(url)
  return { page, problems }
}

/**
 * Makes the window `width` px wide, as a phone turned or a window dragged, and checks the page
 * sees it: a test that measures a loaded page at several widths resizes rather than loads again.
 */
export async function resizeTo(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height })
  const seen = await page.evaluate(() => window.innerWidth)
  if (seen !== width) throw new Error(`the page is ${seen} px wide after a resize to ${width}`)
}

/** Collects console errors and warnings and uncaught page errors (hydration mismatches among them). */
export function watchConsole(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  return problems
}

/**
 * Resolves once React has hydrated every island (web/islands.tsx): the first element of each
 * carries React's fiber (an island that renders nothing, the language hint on most visits, has
 * its root marked on its container). Clicking before that would, for example, submit the form natively.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const islands = [...document.querySelectorAll('[data-island]')]
    return (
      islands.length > 0 &&
      islands.every((island) => {
        const root = island.firstElementChild
        if (root === null) return Object.keys(island).some((key) => key.startsWith('__reactContainer'))
        return Object.keys(root).some((key) => key.startsWith('__reactFiber'))
      })
    )
  })
}

export const notificationRegion = (page: Page): Locator => page.getByRole('region', { name: HOTKEY_LABEL })
// Radix renders each toast as an item of the region's list and announces it through its own live region.
export const toasts = (page: Page): Locator => notificationRegion(page).getByRole('listitem')

export const emailInput = (page: Page): Locator => page.getByRole('textbox', { name: content.waitlist.emailLabel })
export const joinButton = (page: Page): Locator => page.getByRole('button', { name: content.waitlist.submit })

/** Types the address and presses Join Waitlist, then moves the pointer off the toast area. */
export async function submitEmail(page: Page, email: string): Promise<void> {
  await emailInput(page).fill(email)
  await joinButton(page).click()
  // A pointer resting on a toast pauses its timer (Radix); a visitor reading the page has it elsewhere.
  await page.mouse.move(1, 1)
}

/** The toast on screen: its title and description as read, and its variant. */
export async function readToast(toast: Locator): Promise<{ text: string; variant: string | null }> {
  await toast.waitFor({ state: 'visible' })
  return { text: (await toast.innerText()).replace(/\s+/g, ' ').trim(), variant: await toast.getAttribute('data-variant') }
}

interface AXNode {
  nodeId: string
  parentId?: string
  childIds?: string[]
  role?: { value: string }
  name?: { value: string }
  properties?: { name: string; value: { value: unknown } }[]
}

/**
 * The headings as Chromium's own accessibility tree names them (what a screen reader lists), in the
 * tree's reading order: the protocol lists nodes in no promised order, so walk it from the root.
 */
export async function accessibleHeadings(page: Page): Promise<{ level: number; name: string }[]> {
  const cdp = await page.context().newCDPSession(page)
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] }
  await cdp.detach()
  const byId = new Map(nodes.map((node) => [node.nodeId, node]))
  const ordered: AXNode[] = []
  const walk = (node: AXNode | undefined) => {
    if (!node) return
    ordered.push(node)
    for (const id of node.childIds ?? []) walk(byId.get(id))
  }
  for (const root of nodes.filter((node) => node.parentId === undefined)) walk(root)
  return ordered
    .filter((node) => node.role?.value === 'heading')
    .map((node) => ({ level: Number(node.properties?.find((p) => p.name === 'level')?.value.value), name: node.name?.value ?? '' }))
}

/**
 * Clicks a button that asks `confirm()` and answers OK, as the person would. The page's own
 * `confirm` answers here, and says what it asked: Chromium dismisses a native dialog of a page
 * it does not count as the front one, when several people's pages share one browser (CI saw "No
 * dialog is showing" twice, with bringToFront and with the answer given at once).
 */
export async function clickAndConfirm(page: Page, button: Locator): Promise<void> {
  await page.evaluate(() => {
    const asked: string[] = []
    Object.assign(window, { confirmAsked: asked })
    window.confirm = (message?: string) => {
      asked.push(String(message))
      return true
    }
  })
  await button.click()
  const asked = await page.evaluate(() => (window as unknown as { confirmAsked: string[] }).confirmAsked.length)
  if (asked !== 1) throw new Error(`confirm() was asked ${asked} times, not once`)
}
