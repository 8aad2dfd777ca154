// A bounce, a complaint and a suppression shown on the sign-up where the team reads the list
// (docs/decisions/019-suppression.md), on both stores, at 1280 and 390 px: in words beside its
// status, and nothing beside a sign-up whose mail is fine.
import { describe, expect, it } from 'vitest'
import { adminContent } from '../support/admin-words'
import { axeOn } from '../support/axe'
import { chromiumAvailable } from '../support/chromium'
import { useServerAndBrowser } from '../support/browser-suite'
import { watchConsole } from '../support/page'
import { row } from '../support/rows'
import { STORES } from '../support/stores'
import { ownerIn } from '../support/team'

const words = adminContent.status

describe.skipIf(!chromiumAvailable).each(STORES)('bounces and complaints on the list of sign-ups on $kind', ({ kind, available }) => {
  const suite = useServerAndBrowser(
    {},
    {
      kind,
      available,
      seed: async (server) => {
        for (const email of ['fine@example.com', 'gone@example.com', 'angry@example.com', 'flaky@example.com'])
          await server.app.store.add(row(email))
        await server.app.suppressions.report({ email: 'gone@example.com', type: 'hard-bounce', source: 'test' })
        await server.app.suppressions.report({ email: 'angry@example.com', type: 'complaint', source: 'test' })
        await server.app.suppressions.report({ email: 'flaky@example.com', type: 'soft-bounce', source: 'test' })
      },
    },
  )

  for (const width of [1280, 390])
    it.skipIf(!available)(`marks each in words at ${width} px`, async () => {
      const context = await suite.browser.newContext({ viewport: { width, height: 900 } })
      await ownerIn(context, suite.server)
      const page = await context.newPage()
      const problems = watchConsole(page)
      await page.goto(`${suite.server.url}/admin/signups`)
      const line = (email: string) => page.getByRole('row').filter({ hasText: email })
      await expect.poll(() => line('gone@example.com').count()).toBe(1)
      // What a person sees in the row (at 390 px the status sits under the address).
      const seen = async (email: string) => (await line(email).innerText()).replace(/\s+/g, ' ')
      expect(await seen('gone@example.com')).toContain(`${words.mailEvent['hard-bounce']} · ${words.suppressed}`)
      expect(await seen('angry@example.com')).toContain(`${words.mailEvent.complaint} · ${words.suppressed}`)
      expect(await seen('flaky@example.com')).toContain(words.mailEvent['soft-bounce'])
      expect(await seen('flaky@example.com')).not.toContain(words.suppressed)
      for (const word of [words.suppressed, words.mailEvent['hard-bounce'], words.mailEvent.complaint])
        expect(await seen('fine@example.com')).not.toContain(word)
      expect((await axeOn(page).analyze()).violations.map((v) => v.id)).toEqual([])
      expect(problems).toEqual([])
      await context.close()
    })
})
