// One server and one Chromium for a browser test file, started before its tests and closed after.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import type { Env } from '../../server/config'
import { launchChromium } from './chromium'
import { startServer, type TestServer } from './server'

export interface BrowserSuite {
  readonly server: TestServer
  readonly browser: Browser
}

export function useServerAndBrowser(env: Env = {}): BrowserSuite {
  let server: TestServer | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    server = await startServer(env)
    browser = await launchChromium()
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
    if (value === undefined) throw new Error(`${what} is not started: use it inside a test`)
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
