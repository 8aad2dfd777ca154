// How a mail leaves: Nodemailer through SMTP_URL, or, with no SMTP configured, as an .eml file in
// MAIL_DIR (the admin page lists them), so `npm start` shows the whole flow on a fresh machine.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js'
import type { DkimKey } from './dkim.js'

/** What the outbox hands the transport: one rendered mail to one recipient. */
export interface OutgoingMail {
  from: string
  to: string
  subject: string
  text: string
  html: string
  /** `<key@domain>`, fixed when the mail was queued: a resend is the same message. */
  messageId: string
  /** When the mail was queued: the same on every attempt. */
  date: Date
  headers: Record<string, string>
  /** The SMTP envelope: its `from` is the return path bounces come back to (VERP). */
  envelope?: { from: string; to: string }
}

export interface Transport {
  readonly kind: 'smtp' | 'files'
  send(mail: OutgoingMail): Promise<void>
  close(): void
}

/** SMTP connections kept open and reused; several mails go out at once. */
const SMTP_CONNECTIONS = 4

export function createTransport(smtpUrl: string | undefined, mailDir: string, dkim?: DkimKey): Transport {
  if (smtpUrl) {
    const options: SMTPPool.Options = {
      ...smtpOptions(smtpUrl),
      pool: true,
      maxConnections: SMTP_CONNECTIONS,
      // A server that does not answer is a transient failure, retried; not a send that hangs.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
      ...(dkim ? { dkim } : {}),
    }
    const smtp = nodemailer.createTransport(options)
    return {
      kind: 'smtp',
      send: async (mail) => void (await smtp.sendMail(mail)),
      close: () => smtp.close(),
    }
  }
  // Files are signed too: what the admin page previews is what SMTP would send.
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows', ...(dkim ? { dkim } : {}) })
  return {
    kind: 'files',
    async send(mail) {
      const { message } = await stream.sendMail(mail)
      mkdirSync(mailDir, { recursive: true })
      // Written whole, then renamed: a reader never sees half a mail; a resend replaces the file.
      const name = localMailName(mail)
      const partial = join(mailDir, `.${name}.partial`)
      writeFileSync(partial, message as Buffer)
      renameSync(partial, join(mailDir, name))
    },
    close: () => undefined,
  }
}

/** `2026-11-23T12-00-00-123Z-<key>.eml`: sorted by name is sorted by time. */
export function localMailName(mail: Pick<OutgoingMail, 'date' | 'messageId'>): string {
  const key = mail.messageId.replace(/^<|@.*$/g, '')
  return `${mail.date.toISOString().replace(/[:.]/g, '-')}-${key}.eml`
}

/** smtp://user:pass@host:port and smtps://… into Nodemailer's options (user and password decoded). */
function smtpOptions(url: string): SMTPPool.Options {
  const parsed = new URL(url)
  const secure = parsed.protocol === 'smtps:'
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    ...(parsed.username ? { auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } } : {}),
  }
}
