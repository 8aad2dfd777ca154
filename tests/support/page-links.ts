// A sign-up's own page link as its owner gets it: from the confirmation mail the server wrote as a
// file (no SMTP_URL), in the server's mail folder. The server must send mail at once
// (MAIL_RATE_PER_SECOND=0 keeps a test from waiting on the pace).
import { firstRecipient, localMails } from './mailbox'
import { hashToken } from '../../server/secrets'
import type { TestServer } from './server'
import { OUTCOME_WAIT_MS } from './waits'

/** The page token of the mail to `email` (any letter case: mailers write domains in lower case), once that mail is written. */
export async function pageTokenFor(mailDir: string, email: string, timeoutMs = OUTCOME_WAIT_MS): Promise<string> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    // Read as a mail client reads it: quoted-printable lines may break a link anywhere.
    for (const mail of await localMails(mailDir)) {
      const token = /\/me\/([A-Za-z0-9_-]{43})\b/.exec(mail.text ?? '')?.[1]
      if (token && firstRecipient(mail) === email.toLowerCase()) return token
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`no mail to ${email}`)
}

/** Joins through the PostgREST insert (with any other columns), and answers the page token and the sign-up's id. */
export async function joinWithLink(
  server: TestServer,
  email: string,
  columns: Record<string, unknown> = {},
): Promise<{ token: string; id: number }> {
  const answer = await fetch(`${server.url}/rest/v1/waitlist`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, ...columns }),
  })
  if (answer.status !== 201) throw new Error(`joining as ${email} answered ${answer.status}`)
  const token = await pageTokenFor(server.config.MAIL_DIR, email)
  const visitor = await server.app.store.visitors.byToken(hashToken(token))
  if (!visitor) throw new Error(`no sign-up behind the link mailed to ${email}`)
  return { token, id: visitor.id }
}

/** Presses Confirm on the visitor's page, as the page's form does. */
export async function confirmOnPage(server: TestServer, token: string): Promise<void> {
  const answer = await fetch(`${server.url}/me/${token}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  })
  if (answer.status !== 303) throw new Error(`confirming answered ${answer.status}`)
}
