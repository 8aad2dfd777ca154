// One server and one Chromium for a browser test file (or for one store's block of it), started
// before its tests and closed after.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import type { Env } from '../../server/config'
import { launchChromium } from './chromium'
import { startServer, type TestServer } from './server'
import type { StoreKind } from './stores'

export interface BrowserSuite {
  readonly server: TestServer
  readonly browser: Browser
}

export interface SuiteOptions {
  /** The store the server runs on (SQLite unless named). */
  kind?: StoreKind
  /** False for a store this machine lacks: nothing starts, and the block's tests skip themselves. */
  available?: boolean
  /** What the server holds before Chromium starts and the first test runs (a count read once a minute, say). */
  seed?: (server: TestServer) => Promise<void>
  /** Chromium's switches of this suite's own (support/chromium.ts, `launchChromium`). */
  chromiumArgs?: readonly string[]
}

export function useServerAndBrowser(
  env: Env = {},
  { kind = 'sqlite', available = true, seed, chromiumArgs = [] }: SuiteOptions = {},
): BrowserSuite {
  let server: TestServer | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    if (!available) return
    server = await startServer(env, kind)
    await seed?.(server)
    browser = await launchChromium(chromiumArgs)
  })
  afterAll(async () => {
    // The files of a worker share its process: the server is closed even when Chromium's close fails.
    try {
      await browser?.close()
    } finally {
      await server?.close()
    }
  })
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started: use it inside a test, of a store this machine has`)
    return value
  }
  return {
    get server() {
      return ready(server, 'the server')
    },
    get browser() {
      return ready(browser, 'Chromium')
    },
  }
}
