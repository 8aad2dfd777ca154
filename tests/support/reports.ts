// Reports mailed back, as the tests make them from the mails the server wrote.

/** A DSN as a receiving server makes one from a mail it cannot deliver: sent to the mail's Return-Path, quoting its headers. */
export function dsnFor(eml: string): string {
  const headers = eml.slice(0, eml.search(/\r?\n\r?\n/))
  const returnPath = /^Return-Path:[ \t]*<([^>]*)>/im.exec(headers)?.[1] ?? ''
  return `Return-Path: <>
Delivered-To: ${returnPath}
From: MAILER-DAEMON@mx.example.net (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: ${returnPath}
Message-ID: <dsn-local@mx.example.net>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B1"

--B1
Content-Type: text/plain; charset=us-ascii

Your message could not be delivered.

--B1
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net

Final-Recipient: rfc822; ada@example.com
Action: failed
Status: 5.1.1

--B1
Content-Type: text/rfc822-headers

${headers}

--B1--
`
}
