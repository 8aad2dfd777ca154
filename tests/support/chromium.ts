// Debian's Chromium, driven by playwright-core (no browser download is possible here).
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const chromiumAvailable = existsSync(CHROMIUM_PATH)

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface LaunchedBrowser {
  context: BrowserContext
  close: () => Promise<void>
}

/** A fresh Chromium with its own empty profile, removed on close. */
export async function launchChromium(options: BrowserContextOptions = {}): Promise<LaunchedBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'kennect-chromium-'))
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    ...options,
  })
  return {
    context,
    close: async () => {
      await context.close()
      rmSync(userDataDir, { recursive: true, force: true })
    },
  }
}
