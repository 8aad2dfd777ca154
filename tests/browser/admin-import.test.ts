// An editor imports a club's list from the Import view (issue 51), on both stores: the first rows as
// the import will read them before it starts, the progress to its end, the counts and the error
// file; the Sign-ups view and the composer then say where the people came from and on what basis.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { adminContent } from '../support/admin-words'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { row } from '../support/rows'
import { STORES } from '../support/stores'
import { joinTeam, signInContext } from '../support/team'

const copy = adminContent.imports
const BASIS = 'Members who ticked news about Kennect on the Whippet Club’s 2026 form'
const FILE = [
  'Email Address;First Name;Country;Breeds',
  'ada@whippet.example;Ada;Polska;Chart Polski|Whippet',
  'already@whippet.example;Al;DE;',
  'not-an-address;Bo;DE;',
  'cy@whippet.example;Cy;Atlantis;',
  'dee@whippet.example;Dee;Deutschland;Our own cross',
].join('\r\n')

describe.skipIf(!chromiumAvailable).each(STORES)('the Import view on $kind', ({ kind, available }) => {
  const suite = useServerAndBrowser(
    { MAIL_RATE_PER_SECOND: '0' },
    { kind, available, seed: async (server) => void (await server.app.store.add(row('already@whippet.example'))) },
  )
  const dir = mkdtempSync(join(tmpdir(), 'kennect-import-view-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it.skipIf(!available)(
    'an editor sees the rows as they will be read, starts the import, follows it, and downloads the lines not added',
    async () => {
      const { server } = suite
      const file = join(dir, 'whippet-club.csv')
      writeFileSync(file, `\uFEFF${FILE}\r\n`)
      const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
      const editor = await joinTeam(server, 'editor.import@kennect.example', 'editor')
      await signInContext(context, server, editor)
      const page = await context.newPage()
      await page.goto(`${server.url}/admin/import`)
      await page.getByLabel(copy.file).setInputFiles(file)

      // Before it starts: the first rows as the import will read them, and the columns it leaves out.
      const preview = page.getByRole('region', { name: copy.previewCaption(5) })
      await preview.waitFor()
      await expect.poll(() => page.getByText(copy.ignored(['First Name'])).isVisible()).toBe(true)
      const ada = preview.getByRole('row', { name: /ada@whippet\.example/ })
      expect(await ada.textContent()).toContain('PL')
      expect(await ada.textContent()).toContain('Chart Polski, Whippet')
      expect(await preview.getByRole('row', { name: /not-an-address/ }).textContent()).toContain(copy.reasons.invalid_email)
      expect(await preview.getByRole('row', { name: /cy@whippet/ }).textContent()).toContain(copy.reasons.unknown_country)
      expect(await preview.getByRole('row', { name: /dee@whippet/ }).textContent()).toContain(`Our own cross (${copy.unknownBreed})`)

      await page.getByLabel(copy.basis).fill(BASIS)
      await page.getByLabel(copy.label).fill('Whippet Club')
      await page.getByRole('button', { name: copy.start }).click()
      // Followed to its end: the bar full, the counts, and the file of the lines not added.
      await expect.poll(() => page.getByText(`Whippet Club: ${copy.statuses.done}`).first().isVisible()).toBe(true)
      expect(await page.getByRole('progressbar', { name: /Progress of import/ }).getAttribute('value')).toBe('100')
      await page
        .getByText(`5 rows: ${copy.counts({ added: 2, filled: 0, skipped: 1, failed: 2, mode: 'subscribe' })}`)
        .first()
        .waitFor()
      const download = page.waitForEvent('download')
      await page.getByRole('link', { name: copy.errorsFile }).click()
      const errors = readFileSync((await (await download).path()) ?? '', 'utf8')
      expect(errors).toBe(
        'line,email,reason\r\n"3","already@whippet.example","exists"\r\n"4","not-an-address","invalid_email"\r\n"5","cy@whippet.example","unknown_country"\r\n',
      )

      // The Sign-ups view says where Ada came from and on what basis.
      await page.getByRole('link', { name: adminContent.nav.signups }).click()
      await expect.poll(() => page.getByRole('row', { name: /ada@whippet\.example/ }).textContent()).toContain(BASIS)
      // The composer says imported people never confirmed, and lists the basis.
      await page.getByRole('link', { name: adminContent.nav.campaigns }).click()
      await page.getByLabel(adminContent.campaigns.imported).waitFor()
      await expect.poll(() => page.getByText(copy.composer).isVisible()).toBe(true)
      await page.getByText(copy.composerBasis('Whippet Club', 1, BASIS, 2)).waitFor()
      await context.close()
    },
  )
})
