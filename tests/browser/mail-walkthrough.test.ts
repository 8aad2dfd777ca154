// The README's walkthrough, with no SMTP configured: a visitor joins on the page, the operator
// finds the confirmation mail in the admin page's local mailbox, follows its link, and the
// sign-up ends confirmed, with breeds and a country, as the admin list then shows.
import { describe, expect, it } from 'vitest'
import { adminContent } from '../support/admin-words'
import { content } from '../../web/content'
import { englishVisitorContent as visitorContent } from '../../web/visitor/content'
import { mailCopy } from '../../server/mail/content'
import { useServerAndBrowser } from '../support/browser-suite'
import { chromiumAvailable } from '../support/chromium'
import { ownerIn } from '../support/team'
import { submitEmail, toasts, visit, waitForHydration } from '../support/page'

const copy = adminContent.mail

describe.skipIf(!chromiumAvailable)('from a join to a confirmed sign-up, with the local mailbox', () => {
  const suite = useServerAndBrowser({ MAIL_RATE_PER_SECOND: '0' })

  it('lets the operator open the mail and the visitor confirm from it', async () => {
    const { page } = await visit(suite.browser, `${suite.server.url}/`)
    await waitForHydration(page)
    await submitEmail(page, 'walker@example.com')
    await toasts(page).getByText(content.waitlist.success.title).waitFor()

    await ownerIn(page.context(), suite.server)
    const admin = await page.context().newPage()
    // Without motion: opening a preview scrolls it into view, smoothly otherwise, and a click into
    // its frame during that scroll can land beside the link (a fresh-clone CI run under load opened
    // no page in 30 s). admin-mail-preview.test.ts checks the scroll itself, with and without motion.
    await admin.emulateMedia({ reducedMotion: 'reduce' })
    await admin.goto(`${suite.server.url}/admin/mail`)
    const subject = mailCopy('Kennect').confirmation.subject
    const sent = admin.getByRole('definition').filter({ hasText: /^1$/ })
    await admin.getByRole('button', { name: copy.previewLabel(subject) }).click() // it waits for the mail to be listed
    expect(await sent.count()).toBeGreaterThan(0)
    const preview = admin.getByRole('region', { name: copy.previewLabel(subject) })
    await preview.getByText('walker@example.com').waitFor()
    await expect.poll(() => preview.evaluate((region) => region === document.activeElement)).toBe(true)
    const mail = admin.frameLocator(`iframe[title="${copy.frameTitle}"]`)
    // The preview's document is written first: the click goes to its link, not to a frame still loading.
    await mail.getByRole('link', { name: mailCopy('Kennect').confirmation.button }).waitFor()
    const [visitorPage] = await Promise.all([
      admin.context().waitForEvent('page'),
      mail.getByRole('link', { name: mailCopy('Kennect').confirmation.button }).click(),
    ])
    if (!visitorPage) throw new Error('the link opened no page')
    await visitorPage.getByRole('heading', { level: 1, name: visitorContent.heading }).waitFor()
    await visitorPage.getByRole('button', { name: visitorContent.confirm.button }).click()
    await visitorPage.waitForURL(/done=confirmed/)
    await visitorPage.getByRole('combobox', { name: visitorContent.profile.breedLabel(1), exact: true }).fill('Border Collie')
    await visitorPage.getByRole('combobox', { name: visitorContent.profile.country }).selectOption('IE')
    await visitorPage.getByRole('button', { name: visitorContent.profile.save, exact: true }).click()
    await visitorPage.waitForURL(/done=saved/)

    await admin.getByRole('navigation', { name: adminContent.nav.label }).getByRole('link', { name: adminContent.nav.signups }).click()
    const row = admin.getByRole('row').filter({ hasText: 'walker@example.com' })
    await row.waitFor()
    const text = (await row.innerText()).replace(/\s+/g, ' ')
    expect(text).toContain(adminContent.status.confirmed)
    expect(text).toContain('IE')
    expect(text).toContain('Border Collie')
    await page.context().close()
  })
})
