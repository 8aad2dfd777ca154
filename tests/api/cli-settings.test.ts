// The command line composes campaigns with the running server's settings (issue 38, item 5): a dry
// run in a shell that has only the database's address previews the links the server will send and
// takes the tags the server takes (`{{app_store_url}}` with the server's APP_STORE_URL), because the
// server records its public settings in the store when it starts. On both stores.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { localMails } from '../support/mailbox'
import { pageTokenFor } from '../support/page-links'
import { builtCli } from '../support/process'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'

const run = promisify(execFile)
const SITE_URL = 'https://kennect.example'
const APP_STORE_URL = 'https://apps.apple.com/app/kennect/id6400000000'

/** The links of a text, the recipient's own token made generic (a preview shows a sample link). */
const linksIn = (text: string) =>
  [...new Set(text.match(/https?:\/\/[^\s)>\]"]+/g) ?? [])]
    .map((link) => link.replace(/\/me\/[A-Za-z0-9_-]{43}/, '/me/your-own-link'))
    .sort()

describe.each(STORES)('the command line with the server’s settings on $kind', ({ kind, available }) => {
  let server: TestServer
  const dir = mkdtempSync(join(tmpdir(), 'kennect-cli-settings-'))
  afterEach(async () => {
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it.skipIf(!available)(
    'previews the links the server sends and takes the tags it takes, from a shell without its environment',
    async () => {
      server = await startServer({ SITE_URL, APP_STORE_URL, MAIL_RATE_PER_SECOND: '0' }, kind)
      await server.app.store.add(row('ada@example.com'))
      const token = await pageTokenFor(server.config.MAIL_DIR, 'ada@example.com')
      const [ada] = await server.app.store.list({ limit: 1, search: 'ada@' })
      await server.app.store.visitors.confirm(ada?.id ?? 0)
      expect(token).toBeTruthy()

      const message = join(dir, 'launch.md')
      writeFileSync(message, 'The app is out: [get it]({{app_store_url}}). [Your page]({{my_page_url}}).\n')
      // The shell knows where the database is, nothing of the server's own settings.
      const env = {
        PATH: process.env.PATH,
        ...(kind === 'postgres' ? { DATABASE_URL: server.config.DATABASE_URL } : { SQLITE_PATH: server.config.SQLITE_PATH }),
      }
      const cli = (...args: string[]) => run(process.execPath, [builtCli(), ...args], { env })
      const dry = await cli('campaign', 'create', '--subject', 'Launch', '--markdown-file', message, '--dry-run')
      expect(dry.stdout).toContain(`links as the server at ${SITE_URL} sends them`)
      const previewed = linksIn(dry.stdout.slice(dry.stdout.indexOf('--- en ---')))
      expect(previewed).toContain(APP_STORE_URL)
      expect(previewed).toContain(`${SITE_URL}/me/your-own-link`)
      expect(previewed.some((link) => link.includes('localhost'))).toBe(false)

      // Sent for real, by the server: the same links, the recipient's own in place of the sample.
      const created = await cli('campaign', 'create', '--subject', 'Launch', '--markdown-file', message)
      const id = /campaign (\d+):/.exec(created.stdout)?.[1] ?? ''
      await cli('campaign', 'send', id)
      let sent: string | undefined
      for (let i = 0; i < 200 && !sent; i++) {
        for (const mail of await localMails(server.config.MAIL_DIR)) if (mail.subject === 'Launch') sent = mail.text
        if (!sent) await new Promise((resolve) => setTimeout(resolve, 25))
      }
      expect(sent).toBeDefined()
      expect(linksIn(sent ?? '')).toEqual(previewed)
    },
  )
})
