// The admin's local mailbox (no SMTP_URL: each mail an .eml file in MAIL_DIR), as GET /admin/api/mail
// lists it: the newest first, each mail as it is now on disk though the list keeps what it read of
// each file (server/mail/local-mailbox.ts): a new mail appears, a mail written again under its name
// is read again, a mail removed is gone.
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MailOverview } from '../../contract/admin-api'
import { joinWithLink } from '../support/page-links'
import { startServer, type TestServer } from '../support/server'

const ADMIN_TOKEN = 'local-mailbox-admin-token-0123456789'

describe('the local mailbox list', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' })
  })
  afterAll(() => server?.close())

  const list = async () => {
    const answer = await fetch(`${server.url}/admin/api/mail`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    expect(answer.status).toBe(200)
    return ((await answer.json()) as MailOverview).local
  }
  const files = () => readdirSync(server.config.MAIL_DIR).filter((name) => name.endsWith('.eml'))

  it('lists each mail as it is on disk now, however often it was listed before', async () => {
    for (const who of ['ada', 'bo']) await joinWithLink(server, `${who}@example.com`)
    const first = await list()
    expect(first.map((mail) => mail.to)).toEqual(['bo@example.com', 'ada@example.com'])
    expect(await list()).toEqual(first)

    await joinWithLink(server, 'cy@example.com')
    expect((await list()).map((mail) => mail.to)).toEqual(['cy@example.com', 'bo@example.com', 'ada@example.com'])

    // Ada's mail written again under its name (as the transport does: a new file renamed into place).
    const ada = files().find((name) => readFileSync(join(server.config.MAIL_DIR, name), 'utf8').includes('ada@example.com'))
    if (!ada) throw new Error("no file of Ada's mail")
    const path = join(server.config.MAIL_DIR, ada)
    const rewritten = readFileSync(path, 'utf8').replace(/^Subject: .*$/m, 'Subject: Written again')
    writeFileSync(`${path}.partial`, rewritten)
    renameSync(`${path}.partial`, path)
    expect((await list()).find((mail) => mail.name === ada)?.subject).toBe('Written again')

    rmSync(path)
    expect((await list()).map((mail) => mail.to)).toEqual(['cy@example.com', 'bo@example.com'])
  })
})
