// Bounces and complaints mailed back (docs/decisions/019-suppression.md), through the command a mail
// server pipes them to, on both stores: an RFC 3464 DSN found by its VERP return path (not by the
// forwarded final recipient it names), an RFC 5965 ARF complaint found by the original Message-ID,
// a delayed DSN as a soft bounce, the same report piped twice counted once, and an ordinary mail
// that records nothing; and, without SMTP, the .eml files carry the Return-Path a delivering
// server would write, so a DSN made from one can be tried locally end to end.
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Suppression } from '../../contract/mail-events'
import { pageTokenFor } from '../support/page-links'
import { builtCli } from '../support/process'
import { dsnFor } from '../support/reports'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { runSql, sameSql } from '../support/team'

const ADMIN_TOKEN = 'admin-token-for-the-inbound-tests-0123'
const RETURN_PATH = 'bounces+{id}@kennect.test'

/** A DSN as Postfix writes one (RFC 3464's layout), sent back to `to`, quoting the original's headers. */
const dsn = (to: string, messageId: string, action: string, status: string, id: string) => `Return-Path: <>
Delivered-To: ${to}
From: MAILER-DAEMON@mx.example.net (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: ${to}
Message-ID: <${id}@mx.example.net>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B1"

--B1
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.example.net. Your message could not be delivered.

--B1
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net
Arrival-Date: Thu, 26 Nov 2026 02:00:00 +0000

Final-Recipient: rfc822; forwarded@elsewhere.example
Action: ${action}
Status: ${status}
Diagnostic-Code: smtp; 550 5.1.1 <forwarded@elsewhere.example>: Recipient address rejected

--B1
Content-Type: text/rfc822-headers

From: Kennect <hello@kennect.test>
To: someone@example.com
Subject: Confirm your address
Message-ID: ${messageId}

--B1--
`

/** An ARF complaint (RFC 5965's example's layout) quoting the original message. */
const arf = (messageId: string) => `From: <abuse@mailbox.example>
Date: Thu, 26 Nov 2026 02:00:00 +0000
Subject: FW: Confirm your address
To: <abuse@kennect.test>
Message-ID: <arf-1@mailbox.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="part1"

--part1
Content-Type: text/plain; charset="US-ASCII"

This is an email abuse report for an email message received from IP 192.0.2.1.

--part1
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: SomeGenerator/1.0
Version: 1
Original-Rcpt-To: <bea@example.com>

--part1
Content-Type: message/rfc822
Content-Disposition: inline

From: <hello@kennect.test>
To: <bea@example.com>
Subject: Confirm your address
Message-ID: ${messageId}
Date: Thu, 26 Nov 2026 01:00:00 +0000

Confirm your address.
--part1--
`

describe.each(STORES)('mail inbound on $kind', ({ kind, available }) => {
  let server: TestServer
  afterEach(() => server?.close())
  const inbound = (message: string) =>
    new Promise<string>((resolve, reject) => {
      const env = kind === 'postgres' ? { DATABASE_URL: server.config.DATABASE_URL } : { SQLITE_PATH: server.config.SQLITE_PATH }
      const child = spawn(process.execPath, [builtCli(), 'mail', 'inbound'], {
        env: { PATH: process.env.PATH, ...env, MAIL_RETURN_PATH: RETURN_PATH },
      })
      let out = ''
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out}`))))
      child.stdin.end(message)
    })
  const suppressions = async () =>
    (
      (await (await fetch(`${server.url}/admin/api/suppressions`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as {
        items: Suppression[]
      }
    ).items.map((s) => [s.email, s.reason])
  /** Joins; answers the confirmation mail's outbox id and Message-ID. */
  async function joined(email: string): Promise<{ id: number; messageId: string }> {
    const answer = await fetch(`${server.url}/rest/v1/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    })
    expect(answer.status).toBe(201)
    await pageTokenFor(server.config.MAIL_DIR, email)
    const [row] = await runSql(
      server,
      sameSql('SELECT outbox.id, message_key FROM outbox JOIN waitlist ON waitlist.id = outbox.signup_id WHERE waitlist.email = ?'),
      [email],
    )
    return { id: Number(row?.id), messageId: `<${String(row?.message_key)}@kennect.test>` }
  }

  it.skipIf(!available)('records a DSN by its VERP address and an ARF report by its Message-ID, each once', async () => {
    server = await startServer(
      { ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0', MAIL_RETURN_PATH: RETURN_PATH, MAIL_FROM: 'Kennect <hello@kennect.test>' },
      kind,
    )
    const ada = await joined('ada@example.com')
    const bea = await joined('bea@example.com')
    const cem = await joined('cem@example.com')
    const verp = async (id: number) => `bounces+${id}.${await server.app.suppressions.verpTag(id)}@kennect.test`
    // A report to a VERP address whose tag is not ours, quoting no mail of ours: nothing (anyone can mail us).
    const forged = dsn(`bounces+${ada.id}.0000000000@kennect.test`, '<nobody@kennect.test>', 'failed', '5.1.1', 'dsn-0')
    expect(await inbound(forged)).toBe('hard-bounce: no mail of ours\n')
    // Ada's DSN names a forward as its final recipient, and quotes another Message-ID: the VERP address decides.
    const hard = dsn(await verp(ada.id), bea.messageId, 'failed', '5.1.1', 'dsn-1')
    expect(await inbound(hard)).toBe('hard-bounce: recorded, address suppressed\n')
    expect(await inbound(hard)).toBe('hard-bounce: seen before\n')
    expect(await suppressions()).toEqual([['ada@example.com', 'hard-bounce']])
    // Bea's complaint: found by the Message-ID it quotes; she is unsubscribed.
    expect(await inbound(arf(bea.messageId))).toBe('complaint: recorded, address suppressed\n')
    const [beaRow] = await server.app.store.list({ limit: 1, search: 'bea@' })
    expect(beaRow?.unsubscribed_at).toMatch(/^\d{4}-/)
    // Cem's mail: a delay is no failure (nothing), a policy refusal says nothing of his address
    // (nothing), a failure 4.x.x is a soft bounce, remembered, not yet a suppression.
    const nothing = 'not a bounce or complaint report: nothing recorded\n'
    expect(await inbound(dsn('postmaster@kennect.test', cem.messageId, 'delayed', '4.4.7', 'dsn-2'))).toBe(nothing)
    expect(await inbound(dsn('postmaster@kennect.test', cem.messageId, 'failed', '5.7.1', 'dsn-3'))).toBe(nothing)
    expect(await inbound(dsn('postmaster@kennect.test', cem.messageId, 'failed', '4.2.2', 'dsn-4'))).toBe('soft-bounce: recorded\n')
    expect((await suppressions()).map(([email]) => email).sort()).toEqual(['ada@example.com', 'bea@example.com'])
    // An ordinary mail records nothing; a report about no mail of ours neither.
    expect(await inbound('From: a@b.example\nTo: bounces+1@kennect.test\nSubject: hello\n\nhi\n')).toBe(
      'not a bounce or complaint report: nothing recorded\n',
    )
    expect(await inbound(arf('<unknown@kennect.test>').replaceAll('bea@example.com', 'nobody').replace('arf-1', 'arf-2'))).toBe(
      'complaint: no mail of ours\n',
    )
  })

  it.skipIf(!available)('writes the VERP Return-Path into the .eml, and a DSN made from that file is recorded', async () => {
    server = await startServer(
      { ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0', MAIL_RETURN_PATH: RETURN_PATH, MAIL_FROM: 'Kennect <hello@kennect.test>' },
      kind,
    )
    const ada = await joined('ada@example.com')
    const [file] = readdirSync(server.config.MAIL_DIR).filter((name) => name.endsWith('.eml'))
    const eml = readFileSync(join(server.config.MAIL_DIR, file ?? ''), 'utf8')
    const verp = `bounces+${ada.id}.${await server.app.suppressions.verpTag(ada.id)}@kennect.test`
    // First, as a delivering server prepends it.
    expect(eml.split('\r\n')[0]).toBe(`Return-Path: <${verp}>`)
    // Its Message-ID left out of the quoted headers: the Return-Path alone finds the mail.
    expect(await inbound(dsnFor(eml.replace(/^Message-ID:.*\r\n/im, '')))).toBe('hard-bounce: recorded, address suppressed\n')
    expect(await suppressions()).toEqual([['ada@example.com', 'hard-bounce']])
  })
})
