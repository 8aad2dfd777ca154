// Debian's Chromium, driven by playwright-core (no browser download is possible here).
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { OUTCOME_WAIT_MS } from './waits'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const chromiumAvailable = existsSync(CHROMIUM_PATH)

/** The switches this machine's instructions give for headless Chromium (the tests' and `npm run lighthouse`'s). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Chromium 156 gives every browser window (Playwright opens one for each context) the address
 * bar's drop-down as two WebUI pages, chrome://omnibox-popup.top-chrome/, loaded at once in a
 * renderer process of their own even though a headless window never shows them. Here that cost
 * about 1 s of CPU per new page, more than a test's own page: a new page and a first navigation
 * took 850 and 430 ms of CPU with them, 350 and 120 ms without. These two features make them.
 */
export const UNSHOWN_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']

/** The switch whose last list Chromium keeps. */
export const DISABLE_FEATURES = '--disable-features='

/**
 * Chromium keeps only the last `--disable-features` of its command line, and Playwright passes
 * one of its own (features it needs off: paint holding, HTTPS upgrades, storage partitioning…).
 * A list of ours would silently turn those back on, so ours is Playwright's list and the two
 * above. Playwright's list is read from what Playwright itself would launch: a launch of
 * `/bin/false` fails at once and its error quotes the whole command line. If that text ever
 * changes, this fails loudly rather than drop Playwright's list.
 */
async function readPlaywrightDisabledFeatures(): Promise<string[]> {
  const failed = await chromium.launch({ executablePath: '/bin/false', headless: true, args: [...CHROMIUM_ARGS] }).then(
    async (browser) => {
      await browser.close()
      return undefined
    },
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  )
  const line = failed?.split('\n').find((text) => text.startsWith('<launching> '))
  if (line === undefined) throw new Error(`no <launching> line in Playwright's launch error: ${failed}`)
  const flags = line.split(' ').filter((arg) => arg.startsWith(DISABLE_FEATURES))
  if (flags.length !== 1) throw new Error(`expected one ${DISABLE_FEATURES} in Playwright's launch: ${line}`)
  return flags[0]!.slice(DISABLE_FEATURES.length).split(',').filter(Boolean)
}

let launchArgs: Promise<string[]> | undefined

function argsForLaunch(): Promise<string[]> {
  launchArgs ??= readPlaywrightDisabledFeatures().then((playwrights) => [
    ...CHROMIUM_ARGS,
    DISABLE_FEATURES + [...new Set([...playwrights, ...UNSHOWN_FEATURES])].join(','),
  ])
  return launchArgs
}

/**
 * A headless Chromium. Playwright gives each launch a new, empty temporary profile and deletes it
 * on close; each test opens its own context (cookies, storage, JavaScript on or off, media).
 * `extraArgs` are switches of a test's own (`--host-resolver-rules=…`, say), after the usual ones.
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...(await argsForLaunch()), ...extraArgs] })
  // Every context it opens (a page of its own opens one too) waits for an outcome as long as the
  // tests' other waits, not Playwright's 30 s.
  const newContext = browser.newContext.bind(browser)
  browser.newContext = async (options) => {
    const context = await newContext(options)
    context.setDefaultTimeout(OUTCOME_WAIT_MS)
    return context
  }
  const newPage = browser.newPage.bind(browser)
  browser.newPage = async (options) => {
    const page = await newPage(options)
    page.context().setDefaultTimeout(OUTCOME_WAIT_MS)
    return page
  }
  return browser
}
