// Imported people wait for a campaign that names them (issue 51), on both stores: a segment without
// `imported` never reaches those who never confirmed, `imported: true` reaches every one of them,
// their mail asks them to confirm and carries the link, and once confirmed they are as anyone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailCopy } from '../../server/mail/content'
import { imported } from '../support/imports'
import { localMails, recipients } from '../support/mailbox'
import { confirmOnPage } from '../support/page-links'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { asToken } from '../support/team'

const ADMIN_TOKEN = 'imports-campaign-admin-token-0123456789'
const BASIS = 'Members of the Whippet Club who ticked news about Kennect in 2026'

describe.each(STORES)('a campaign to imported people on $kind', ({ kind, available }) => {
  let server: TestServer
  const asAdmin = asToken(() => server, ADMIN_TOKEN)
  const admin = (path: string, body?: unknown) => asAdmin(path, { body })
  const count = async (segment: Record<string, unknown>) => {
    const answer = await admin('/campaigns', { subject: 'Hello', markdown: 'Hello.', segment, send: false })
    expect(answer.status, await answer.clone().text()).toBe(201)
    return ((await answer.json()) as { recipients: number }).recipients
  }

  beforeAll(async () => {
    if (!available) return
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' }, kind)
  })
  afterAll(() => server?.close())

  it.skipIf(!available)(
    'reaches them only through imported: true, asks them to confirm, and counts them as anyone once they have',
    async () => {
      const { store } = server.app
      await store.add(row('joined.confirmed@example.com'))
      await store.add(row('joined.unconfirmed@example.com'))
      await store.visitors.confirm((await store.list({ limit: 1, search: 'joined.confirmed' }))[0]?.id ?? 0)
      const people = ['ada@whippet.example', 'bo@whippet.example', 'cy@whippet.example']
      const status = await imported(
        server,
        { token: ADMIN_TOKEN },
        { mode: 'subscribe', basis: BASIS, label: 'Whippet Club' },
        `email,language\n${people.map((p) => `${p},de`).join('\n')}\n`,
      )
      expect(status.added).toBe(3)

      // Nobody who never confirmed is reached without the switch, unconfirmed addresses asked for or not.
      expect(await count({})).toBe(1)
      expect(await count({ includeUnconfirmed: true })).toBe(2)
      expect(await count({ imported: true })).toBe(3)
      expect(await count({ imported: true, locales: ['de'] })).toBe(3)
      expect(await count({ imported: true, locales: ['en'] })).toBe(0)

      const sent = await admin('/campaigns', {
        subject: 'Kennect is coming',
        markdown: 'Your page: {{my_page_url}}',
        segment: { imported: true },
        send: true,
      })
      expect(sent.status).toBe(201)
      expect(((await sent.json()) as { recipients: number }).recipients).toBe(3)
      // Written in English alone: the whole mail is English, its ask too (a mail never mixes two languages).
      const copy = mailCopy('Kennect', 'en').imported
      let mails: Awaited<ReturnType<typeof localMails>> = []
      await expect
        .poll(async () => {
          mails = (await localMails(server.config.MAIL_DIR)).filter((mail) => people.includes(recipients(mail)[0] ?? ''))
          return mails.length
        })
        .toBe(3)
      for (const mail of mails) {
        // Why it came (a list, never confirmed), the ask, and the link to confirm on their page.
        expect(mail.text).toContain(copy.paragraphs[0])
        expect(mail.text).toContain(copy.why)
        expect(mail.text).toMatch(new RegExp(`${copy.linkIntro}\\nhttp://[^/\\s]+/me/[A-Za-z0-9_-]{43}\\n`))
        expect(mail.html).toContain(copy.button)
      }
      // Ada confirms from her mail: she is confirmed like anyone, reached without the switch.
      const ada = mails.find((mail) => recipients(mail)[0] === 'ada@whippet.example')
      const token = /\/me\/([A-Za-z0-9_-]{43})/.exec(ada?.text ?? '')?.[1] ?? ''
      await confirmOnPage(server, token)
      expect(await count({})).toBe(2)
      expect(await count({ imported: true })).toBe(3)
      const map = (await (await admin('/segments')).json()) as { imported: { total: number }; confirmed: number }
      expect(map.imported.total).toBe(2)
      expect(map.confirmed).toBe(2)
      // Nobody who joined themselves got the import's words.
      expect((await localMails(server.config.MAIL_DIR)).filter((mail) => mail.text?.includes(copy.paragraphs[0] ?? '-')).length).toBe(3)
    },
  )
})
