// The Mail view's local mailbox, long as it gets: pressing Preview on a mail at the top of the
// list brings its preview (drawn under the list) into view and gives it the focus, so a keyboard
// or a screen reader goes on there; at once when the person asks for reduced motion. Closing it
// gives the focus back to the button that opened it.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { adminContent } from '../support/admin-words'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { watchConsole } from '../support/page'
import { ownerIn } from '../support/team'

const copy = adminContent.mail
const MAILS = 40
const HEIGHT = 800

/** A mail as the files transport writes it, with the name it gives it (the newest sorts last). */
function writeMail(dir: string, n: number): void {
  const mail = [
    'From: Kennect <hello@kennect.example>',
    `To: reader-${n}@example.com`,
    `Subject: Mail ${n}`,
    `Date: Tue, 1 Sep 2026 10:${String(n).padStart(2, '0')}:00 +0000`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<p>Hello reader ${n}</p>`,
  ].join('\r\n')
  writeFileSync(join(dir, `2026-09-01T10-${String(n).padStart(2, '0')}-00-mail-${n}.eml`), mail)
}

describe.skipIf(!chromiumAvailable)("the Mail view's preview", () => {
  const suite = useServerAndBrowser()
  beforeAll(() => {
    for (let n = 1; n <= MAILS; n += 1) writeMail(suite.server.config.MAIL_DIR, n)
  })

  it.each(['no-preference', 'reduce'] as const)(
    'brings the preview of the first mail into view and focuses it (reduced motion: %s)',
    async (reducedMotion) => {
      const context = await suite.browser.newContext({ viewport: { width: 1280, height: HEIGHT }, reducedMotion })
      await ownerIn(context, suite.server)
      const page = await context.newPage()
      const problems = watchConsole(page)
      await page.goto(`${suite.server.url}/admin/mail`)
      const subject = `Mail ${MAILS}`
      const button = page.getByRole('button', { name: copy.previewLabel(subject) })
      await button.click()
      const preview = page.getByRole('region', { name: copy.previewLabel(subject) })
      await preview.getByText(`reader-${MAILS}@example.com`).waitFor()
      const focused = () => preview.evaluate((region) => region === document.activeElement)
      const top = () => preview.evaluate((region) => region.getBoundingClientRect().top)
      await expect.poll(focused).toBe(true)
      if (reducedMotion === 'reduce') {
        // No motion: it is there as soon as it has the focus.
        expect(await top()).toBeGreaterThanOrEqual(0)
        expect(await top()).toBeLessThan(HEIGHT / 2)
      } else {
        await expect
          .poll(async () => {
            const at = await top()
            return at >= 0 && at < HEIGHT / 2
          })
          .toBe(true)
      }
      await preview.getByRole('button', { name: copy.close }).click()
      await expect.poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true)
      expect(problems).toEqual([])
      await context.close()
    },
  )
})
