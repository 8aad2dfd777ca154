// How a mail leaves: Nodemailer through SMTP_URL, or, with no SMTP configured, as an .eml file in
// MAIL_DIR (the admin page lists them), so `npm start` shows the whole flow on a fresh machine.
// Either way the message is made once, signed (dkim.ts), and handed over as it is.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js'
import { type DkimKey, signMessage } from './dkim.js'

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
  // The message as bytes, with CRLF line ends as it travels; signed here rather than by Nodemailer,
  // whose signer knows RSA only (dkim.ts).
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' })
  const compose = async (mail: OutgoingMail) => {
    const { message, envelope } = await composer.sendMail(mail)
    return { message: dkim ? await signMessage(message as Buffer, dkim) : (message as Buffer), envelope }
  }
  if (smtpUrl) {
    const options: SMTPPool.Options = {
      ...smtpOptions(smtpUrl),
      pool: true,
      maxConnections: SMTP_CONNECTIONS,
      // A server that does not answer is a transient failure, retried; not a send that hangs.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    }
    const smtp = nodemailer.createTransport(options)
    return {
      kind: 'smtp',
      async send(mail) {
        const { message, envelope } = await compose(mail)
        await smtp.sendMail({ envelope, raw: message })
      },
      close: () => smtp.close(),
    }
  }
  return {
    kind: 'files',
    async send(mail) {
      // Signed too: what the admin page previews is what SMTP would send.
      const { message, envelope } = await compose(mail)
      // The Return-Path a delivering server writes (the envelope's sender, the VERP address with
      // MAIL_RETURN_PATH): a bounce made from this file finds its way back as a real one would.
      const returnPath = Buffer.from(`Return-Path: <${envelope.from || ''}>\r\n`)
      mkdirSync(mailDir, { recursive: true })
      // Written whole, then renamed: a reader never sees half a mail; a resend replaces the file.
      const name = localMailName(mail)
      const partial = join(mailDir, `.${name}.partial`)
      writeFileSync(partial, Buffer.concat([returnPath, message]))
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
