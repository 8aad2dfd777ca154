// The server's local mailbox (MAIL_DIR's .eml files, written whole and then renamed into place by
// server/mail/transport.ts) as the tests read it, each mail parsed by mailparser once. Tests wait for
// a mail by reading the folder again every few milliseconds; parsing every mail at each look cost
// about 1.7 ms of CPU per mail per look, so a folder of a hundred mails cost more than the test's wait.
import { type ParsedMail, simpleParser } from 'mailparser'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * By folder, what was parsed at the last look, by file name with the file's stamp (its inode, size
 * and time of change in nanoseconds: a resend is renamed over its name, a new inode). Each look keeps
 * only the names still there; a folder gone or forgotten is dropped (the test files share a worker's modules).
 */
const folders = new Map<string, Map<string, { stamp: string; mail: Promise<ParsedMail> }>>()

/** Drops what was parsed in a folder (a test server's, when it closes and removes it). */
export function forgetMailbox(mailDir: string): void {
  folders.delete(mailDir)
}

/** Every mail in the folder, oldest first (the names sort by time), parsed; none while it does not exist. */
export async function localMails(mailDir: string): Promise<ParsedMail[]> {
  if (!existsSync(mailDir)) {
    folders.delete(mailDir)
    return []
  }
  const before = folders.get(mailDir)
  const now = new Map<string, { stamp: string; mail: Promise<ParsedMail> }>()
  for (const name of readdirSync(mailDir)
    .filter((n) => n.endsWith('.eml'))
    .sort()) {
    const path = join(mailDir, name)
    try {
      const { ino, size, mtimeNs } = statSync(path, { bigint: true })
      const stamp = `${ino} ${size} ${mtimeNs}`
      const known = before?.get(name)
      now.set(name, known?.stamp === stamp ? known : { stamp, mail: simpleParser(readFileSync(path)) })
    } catch {
      continue // the folder went between the listing and now: the next look says so
    }
  }
  folders.set(mailDir, now)
  const mails: ParsedMail[] = []
  for (const [name, { mail }] of now) {
    try {
      mails.push(await mail)
    } catch (error) {
      now.delete(name) // parsed again at the next look
      throw error
    }
  }
  return mails
}

/** Every address a mail is to, in lower case. */
export const recipients = (mail: ParsedMail): string[] =>
  (Array.isArray(mail.to) ? mail.to : [mail.to])
    .flatMap((a) => a?.value ?? [])
    .flatMap((a) => (a.address ? [a.address.trim().toLowerCase()] : []))

/** The first address a mail is to, in lower case. */
export const firstRecipient = (mail: ParsedMail): string | undefined => recipients(mail)[0]
