// The mails written to MAIL_DIR when no SMTP server is configured, read back for the admin page:
// the newest first, and one whole for its preview.
import { existsSync } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
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

/**
 * What the list last read of each mail, by folder and name, with the file's stamp (inode, size, time
 * of change: a resend is renamed over its name, a new inode). Parsing is about 1 ms of CPU a mail:
 * the list's 50 at every look held the Mail view at 56 ms (docs/performance.md); a file whose stamp
 * is unchanged is read from here. Each look keeps only the names it lists.
 */
const listed = new Map<string, Map<string, { stamp: string; mail: Promise<LocalMail> }>>()

export async function listLocalMails(dir: string, limit: number): Promise<LocalMail[]> {
  if (!existsSync(dir)) {
    listed.delete(dir)
    return []
  }
  const names = (await readdir(dir))
    .filter((name) => LOCAL_MAIL_NAME.test(name))
    .sort()
    .reverse()
    .slice(0, limit)
  const before = listed.get(dir)
  const now = new Map<string, { stamp: string; mail: Promise<LocalMail> }>()
  const mails = await Promise.all(
    names.map(async (name) => {
      const file = await stat(join(dir, name), { bigint: true })
      const stamp = `${file.ino}:${file.size}:${file.ctimeNs}`
      const known = before?.get(name)
      const mail = known?.stamp === stamp ? known.mail : parse(dir, name).then((parsed) => parsed.listed)
      now.set(name, { stamp, mail })
      return mail
    }),
  ).catch((error: unknown) => {
    // A file renamed away between the listing and its read: the next look lists afresh.
    listed.delete(dir)
    throw error
  })
  listed.set(dir, now)
  return mails
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
