// The server's local mailbox (MAIL_DIR's .eml files, written whole and then renamed into place by
// server/mail/transport.ts) as the tests read it, each mail parsed by mailparser once. Tests wait for
// a mail by reading the folder again every few milliseconds; parsing every mail at each look cost
// about 1.7 ms of CPU per mail per look, so a folder of a hundred mails cost more than the test's wait.
import { type ParsedMail, simpleParser } from 'mailparser'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** By path, size and time of change (a resend replaces its file under the same name). */
const parsed = new Map<string, Promise<ParsedMail>>()

/** Every mail in the folder, oldest first (the names sort by time), parsed; none while it does not exist. */
export async function localMails(mailDir: string): Promise<ParsedMail[]> {
  if (!existsSync(mailDir)) return []
  const mails: ParsedMail[] = []
  for (const name of readdirSync(mailDir)
    .filter((n) => n.endsWith('.eml'))
    .sort()) {
    const path = join(mailDir, name)
    let key: string
    try {
      const { size, mtimeMs } = statSync(path)
      key = `${path} ${size} ${mtimeMs}`
    } catch {
      continue // replaced between the listing and now: the next look reads it
    }
    let mail = parsed.get(key)
    if (!mail) {
      mail = simpleParser(readFileSync(path))
      parsed.set(key, mail)
      mail.catch(() => parsed.delete(key))
    }
    mails.push(await mail)
  }
  return mails
}

/** The first address a mail is to, in lower case. */
export const firstRecipient = (mail: ParsedMail): string | undefined =>
  (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address?.trim().toLowerCase()

/** Every address a mail is to, in lower case. */
export const recipients = (mail: ParsedMail): string[] =>
  (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((a) => a?.value ?? []).flatMap((a) => (a.address ? [a.address.toLowerCase()] : []))
