// The mails written to MAIL_DIR when no SMTP server is configured, read back for the admin page:
// the newest first, and one whole for its preview.
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LocalMail, LocalMailPreview } from '../../contract/admin-api.js'
import { lazily } from '../lazy.js'

/** What the transport names its files (and nothing else in the folder, nor a path). */
export const LOCAL_MAIL_NAME = /^[\w-]+\.eml$/

/** mailparser (about 190 ms of CPU to load) comes in when the admin page first lists the mails. */
const mailparser = lazily(() => import('mailparser'))

/** A stored mail parsed, with the fields the list and the preview both show. */
async function parse(dir: string, name: string) {
  const { simpleParser } = await mailparser()
  const mail = await simpleParser(await readFile(join(dir, name)))
  const to = mail.to
    ? [mail.to]
        .flat()
        .map((a) => a.text)
        .join(', ')
    : ''
  const listed: LocalMail = { name, to, subject: mail.subject ?? '', date: (mail.date ?? new Date(0)).toISOString() }
  return { mail, listed }
}

export async function listLocalMails(dir: string, limit: number): Promise<LocalMail[]> {
  if (!existsSync(dir)) return []
  const names = (await readdir(dir))
    .filter((name) => LOCAL_MAIL_NAME.test(name))
    .sort()
    .reverse()
    .slice(0, limit)
  return Promise.all(names.map(async (name) => (await parse(dir, name)).listed))
}

/** One mail whole; undefined when there is no such file. */
export async function readLocalMail(dir: string, name: string): Promise<LocalMailPreview | undefined> {
  if (!LOCAL_MAIL_NAME.test(name) || !existsSync(join(dir, name))) return undefined
  const { mail, listed } = await parse(dir, name)
  const headers: Record<string, string> = {}
  for (const line of mail.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(':') + 1).trim()
  return {
    ...listed,
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : '',
    headers,
  }
}
