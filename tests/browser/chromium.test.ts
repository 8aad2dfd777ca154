// The Chromium every browser test drives (tests/support/chromium.ts): a new page opens without the
// address bar's hidden WebUI pages (about 1 s of CPU a page here), and Playwright's own list of
// features it turns off still reaches Chromium beside ours (Chromium keeps only the last list).
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { chromiumAvailable, DISABLE_FEATURES, launchChromium, UNSHOWN_FEATURES } from '../support/chromium'

/** The command lines of this process's children that are Chromium, by PID. */
function chromiumChildren(): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent !== process.pid) continue
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      if (args.includes('--remote-debugging-pipe')) found.set(pid, args)
    } catch {
      // A process that ended while being read is not one of ours.
    }
  }
  return found
}

describe.skipIf(!chromiumAvailable)('the tests’ Chromium', () => {
  it('opens pages without the address bar’s WebUI, with Playwright’s disabled features and ours', async () => {
    const before = chromiumChildren()
    const browser = await launchChromium()
    try {
      const launched = [...chromiumChildren()].filter(([pid]) => !before.has(pid))
      expect(launched).toHaveLength(1)
      // Playwright's list, then ours: Chromium reads the last, which must hold all of the first.
      const [playwrights, ours] = launched[0]![1]
        .filter((arg) => arg.startsWith(DISABLE_FEATURES))
        .map((arg) => arg.slice(DISABLE_FEATURES.length).split(','))
      expect(playwrights).toContain('PaintHolding')
      expect(new Set(ours)).toEqual(new Set([...playwrights!, ...UNSHOWN_FEATURES]))

      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto('about:blank')
      // The drop-down's pages opened with the window, as it was shown; a moment more for any late one.
      await new Promise((resolve) => setTimeout(resolve, 500))
      const cdp = await browser.newBrowserCDPSession()
      const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] })
      expect(targetInfos.map((target) => `${target.type} ${target.url}`).sort()).toEqual(['page about:blank', 'tab about:blank'])
      await context.close()
    } finally {
      await browser.close()
    }
  })
})
