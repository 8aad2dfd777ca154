// Reports that come back by mail (docs/decisions/019-suppression.md): a delivery status notification
// (RFC 3464) and a complaint in the Abuse Reporting Format (RFC 5965), read from one message as a
// mail server hands it to a pipe. What they are about is found by the VERP return path they were
// sent back to (MAIL_RETURN_PATH, `bounces+{id}@…`), else by the original Message-ID they quote.
import type { MailEventType } from '../../contract/mail-events.js'

export interface MailReport {
  type: MailEventType
  /** The outbox row, from the VERP address the report was mailed to. */
  outboxId: number | null
  /** The left part of the original message's Message-ID. */
  messageKey: string | null
  /** The recipient the report names (only a fallback: a forward's final recipient is not ours). */
  email: string | null
  /** The report's own Message-ID: the same report piped twice counts once. */
  eventId: string | null
}

/** A header's value in a block of headers (folded lines joined). */
function header(block: string, name: string): string | null {
  const match = new RegExp(`^${name}:[ \\t]*((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'im').exec(block)
  return match?.[1]?.replace(/\r?\n[ \t]+/g, ' ').trim() ?? null
}

/** The address in `rfc822; a@b`, `<a@b>` or `a@b`. */
const addressIn = (value: string | null): string | null => /([^\s<>;]+@[^\s<>;]+)/.exec(value ?? '')?.[1]?.toLowerCase() ?? null

/** The VERP id: `{id}` of the return path's pattern, read from where the report was delivered. */
function verpId(headers: string, returnPath: string | undefined): number | null {
  if (!returnPath?.includes('{id}')) return null
  const [before, after] = returnPath.split('{id}')
  const escape = (text: string | undefined) => (text ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const pattern = new RegExp(`${escape(before)}(\\d+)${escape(after)}`, 'i')
  for (const name of ['Delivered-To', 'X-Original-To', 'To', 'Envelope-To'])
    for (const match of headers.matchAll(new RegExp(`^${name}:[ \\t]*(.*)$`, 'gim'))) {
      const id = pattern.exec(match[1] ?? '')?.[1]
      if (id) return Number(id)
    }
  return null
}

/**
 * The events a report says, or an empty list when the message is neither a DSN nor an ARF report
 * (or a DSN that reports only deliveries). A DSN's failed recipient with a 5.x.x status is a hard
 * bounce, a delayed one or a 4.x.x a soft one; an ARF report of abuse is a complaint.
 */
export function readReport(raw: string, returnPath: string | undefined): MailReport[] {
  const split = raw.search(/\r?\n\r?\n/)
  const headers = split < 0 ? raw : raw.slice(0, split)
  const contentType = header(headers, 'Content-Type') ?? ''
  if (!/multipart\/report/i.test(contentType)) return []
  const kind = /report-type="?([\w-]+)/i.exec(contentType)?.[1]?.toLowerCase()
  // The original message (or its headers) the report quotes: its Message-ID is ours.
  const quoted =
    /Content-Type:\s*(?:message\/rfc822|text\/rfc822-headers|message\/rfc822-headers)[^\n]*\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*)/i.exec(
      raw,
    )?.[1] ?? ''
  const messageKey = /^<?([^@<>\s]+)@[^<>\s]+>?$/.exec(header(quoted, 'Message-ID') ?? '')?.[1] ?? null
  const base = { outboxId: verpId(headers, returnPath), messageKey, eventId: header(headers, 'Message-ID') }
  if (kind === 'feedback-report') {
    const report = /Content-Type:\s*message\/feedback-report[^\n]*\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(raw)?.[1] ?? ''
    const feedback = header(report, 'Feedback-Type')?.toLowerCase()
    if (feedback !== 'abuse' && feedback !== 'fraud') return []
    return [{ ...base, type: 'complaint', email: addressIn(header(report, 'Original-Rcpt-To')) ?? addressIn(header(quoted, 'To')) }]
  }
  if (kind !== 'delivery-status') return []
  const status = /Content-Type:\s*message\/delivery-status[^\n]*\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(raw)?.[1] ?? ''
  // The per-message fields, then one block per recipient.
  const blocks = status.split(/\r?\n\r?\n/).slice(1)
  const reports: MailReport[] = []
  for (const block of blocks) {
    const action = header(block, 'Action')?.toLowerCase()
    const code = header(block, 'Status') ?? ''
    const email = addressIn(header(block, 'Original-Recipient')) ?? addressIn(header(block, 'Final-Recipient'))
    if (action === 'failed' && /^5\./.test(code)) reports.push({ ...base, type: 'hard-bounce', email })
    else if (action === 'delayed' || (action === 'failed' && /^4\./.test(code))) reports.push({ ...base, type: 'soft-bounce', email })
  }
  // One event per report: a report about several of our recipients names them by their blocks.
  return reports.map((report, i) => ({
    ...report,
    eventId: report.eventId && reports.length > 1 ? `${report.eventId}#${i}` : report.eventId,
  }))
}
