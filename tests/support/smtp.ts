// A real SMTP server for the tests (smtp-server, from the Nodemailer project), on 127.0.0.1: it
// keeps every message it accepts, parsed by mailparser; it can refuse chosen recipients for good
// (550) and be stopped and started again on the same port, as a provider's outage. A test that only
// counts mails (thousands of them) starts it with `parse: false`: mailparser costs about 1.7 ms of
// CPU a mail here, and the campaign-scale tests went from 151 to 134 s of CPU without it.
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { freePort } from './ports'
import { OUTCOME_WAIT_MS } from './waits'

export interface ReceivedMail {
  to: string
  messageId: string
  subject: string
  parsed: ParsedMail
  raw: string
}

export interface TestSmtp {
  url: string
  port: number
  received: ReceivedMail[]
  /** Every RCPT TO the server was asked for, accepted or not. */
  attempts: string[]
  /** Recipients answered 550 (permanent failure). */
  refuse: Set<string>
  /** Recipients answered 451 (try again later). */
  defer: Set<string>
  /** Resolves when `count` mails have arrived (or rejects after `timeoutMs`). */
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedMail[]>
  /** Until this many different addresses got mail (a mail sent again after a crash counts once). */
  waitForRecipients: (count: number, timeoutMs?: number) => Promise<ReceivedMail[]>
  stop: () => Promise<void>
  start: () => Promise<void>
}

/** The unfolded header block's Message-ID, as mailparser gives it (with its angle brackets). */
function messageIdOf(raw: string): string {
  const end = raw.search(/\r?\n\r?\n/)
  const headers = (end === -1 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ')
  const id = /^message-id[ \t]*:[ \t]*(<[^>\r\n]*>)/im.exec(headers)?.[1]
  // Counted mails are told apart by it (a resend after a crash keeps its Message-ID): none may lack one.
  if (id === undefined) throw new Error(`a mail without a Message-ID header: ${headers.slice(0, 200)}`)
  return id
}

/** A mail kept unparsed: its recipient, Message-ID and raw text; reading its subject or parts says how to get them. */
function unparsed(to: string, messageId: string, raw: string): ReceivedMail {
  const parsedOnly = (): never => {
    throw new Error('This SMTP server counts mails (startSmtp({ parse: false })): start it without that option to read them')
  }
  const mail = { to, messageId, raw } as ReceivedMail
  Object.defineProperty(mail, 'subject', { get: parsedOnly })
  Object.defineProperty(mail, 'parsed', { get: parsedOnly })
  return mail
}

export async function startSmtp(options: { parse?: boolean } = {}): Promise<TestSmtp> {
  const parse = options.parse ?? true
  const port = await freePort()
  const received: ReceivedMail[] = []
  const attempts: string[] = []
  const refuse = new Set<string>()
  const defer = new Set<string>()
  const waiters = new Set<() => void>()
  let server: SMTPServer | undefined

  const make = () => {
    const made = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      // A stop is an outage now, not in 30 s: open connections are cut.
      closeTimeout: 100,
      logger: false,
      onRcptTo(address, _session, callback) {
        attempts.push(address.address)
        if (refuse.has(address.address.toLowerCase())) {
          const error = Object.assign(new Error('5.1.1 Recipient address rejected: no such user'), { responseCode: 550 })
          return callback(error)
        }
        if (defer.has(address.address.toLowerCase())) {
          return callback(Object.assign(new Error('4.7.1 Greylisted, please try again later'), { responseCode: 451 }))
        }
        return callback()
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8')
          if (!parse) {
            let messageId: string
            try {
              messageId = messageIdOf(raw)
            } catch (error) {
              // Refused (the sender sees 554) and said here: the test's count then says what is missing.
              console.error(String(error))
              return callback(Object.assign(error as Error, { responseCode: 554 }))
            }
            for (const rcpt of session.envelope.rcptTo) received.push(unparsed(rcpt.address, messageId, raw))
            for (const wake of waiters) wake()
            return callback()
          }
          simpleParser(raw).then(
            (parsed) => {
              for (const rcpt of session.envelope.rcptTo)
                received.push({ to: rcpt.address, messageId: parsed.messageId ?? '', subject: parsed.subject ?? '', parsed, raw })
              for (const wake of waiters) wake()
              callback()
            },
            (error: unknown) => callback(error as Error),
          )
        })
      },
    })
    // A client that dies mid-session (the crash tests kill the server process) resets its
    // connection: that is the client's story, not a failure of this server.
    made.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error
    })
    return made
  }

  const waitUntil = (measure: () => number, count: number, what: string, timeoutMs: number) =>
    new Promise<ReceivedMail[]>((resolve, reject) => {
      const check = () => {
        if (measure() < count) return
        clearTimeout(timer)
        waiters.delete(check)
        resolve(received)
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        reject(new Error(`${measure()} of ${count} ${what} arrived in ${timeoutMs} ms`))
      }, timeoutMs)
      waiters.add(check)
      check()
    })

  const smtp: TestSmtp = {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    attempts,
    refuse,
    defer,
    waitFor: (count, timeoutMs = OUTCOME_WAIT_MS) => waitUntil(() => received.length, count, 'mails', timeoutMs),
    waitForRecipients: (count, timeoutMs = OUTCOME_WAIT_MS) =>
      waitUntil(() => new Set(received.map((mail) => mail.to)).size, count, 'recipients', timeoutMs),
    start: async () => {
      server = make()
      await new Promise<void>((resolve, reject) => {
        server?.once('error', reject)
        server?.listen(port, '127.0.0.1', () => resolve())
      })
    },
    stop: async () => {
      const running = server
      server = undefined
      if (running) await new Promise<void>((resolve) => running.close(() => resolve()))
    },
  }
  await smtp.start()
  return smtp
}
