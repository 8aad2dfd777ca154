// Reports that come back by mail (docs/decisions/019-suppression.md): a delivery status notification
// (RFC 3464) and a complaint in the Abuse Reporting Format (RFC 5965), read from one message as a
// mail server hands it to a pipe. What they are about is found by the VERP return path they were
// sent back to (MAIL_RETURN_PATH, `bounces+{id}@…`, its tag checked), else by the original
// Message-ID they quote; never by an address the report names (anyone can mail us a report).
import type { MailEventType } from '../../contract/mail-events.js'
import { messageKeyOf } from './report-fields.js'

export interface MailReport {
  type: MailEventType
  /** The VERP address the report was mailed to: the mail's number and its tag (to be checked). */
  verp: { id: number; tag: string } | null
  /** The left part of the original message's Message-ID. */
  messageKey: string | null
  /** The report's own Message-ID: the same report piped twice counts once. */
  eventId: string | null
}

/** A header's value in a block of headers (folded lines joined). */
function header(block: string, name: string): string | null {
  const match = new RegExp(`^${name}:[ \\t]*((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'im').exec(block)
  return match?.[1]?.replace(/\r?\n[ \t]+/g, ' ').trim() ?? null
}

/** The address in `rfc822; a@b`, `<a@b>` or `a@b`. */
/** The VERP number and tag (`{id}` of the return path's pattern is `<number>.<tag>`), read from where the report was delivered. */
function verpOf(headers: string, returnPath: string | undefined): { id: number; tag: string } | null {
  if (!returnPath?.includes('{id}')) return null
  const [before, after] = returnPath.split('{id}')
  const escape = (text: string | undefined) => (text ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const pattern = new RegExp(`${escape(before)}(\\d+)\\.([0-9a-f]+)${escape(after)}`, 'i')
  for (const name of ['Delivered-To', 'X-Original-To', 'To', 'Envelope-To'])
    for (const match of headers.matchAll(new RegExp(`^${name}:[ \\t]*(.*)$`, 'gim'))) {
      const found = pattern.exec(match[1] ?? '')
      if (found) return { id: Number(found[1]), tag: (found[2] ?? '').toLowerCase() }
    }
  return null
}

/**
 * The events a report says, or an empty list when the message is neither a DSN nor an ARF report
 * (or a DSN that reports only deliveries or delays). A DSN's failed recipient with a 5.1.x or 5.2.1
 * status is a hard bounce, a 4.x.x a soft one; an ARF report of abuse is a complaint.
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
  const messageKey = messageKeyOf(header(quoted, 'Message-ID'))
  const reportId = header(headers, 'Message-ID')
  const base = { verp: verpOf(headers, returnPath), messageKey, eventId: reportId ? `${kind}:${reportId}` : null }
  if (kind === 'feedback-report') {
    const report = /Content-Type:\s*message\/feedback-report[^\n]*\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(raw)?.[1] ?? ''
    const feedback = header(report, 'Feedback-Type')?.toLowerCase()
    if (feedback !== 'abuse' && feedback !== 'fraud') return []
    return [{ ...base, type: 'complaint' }]
  }
  if (kind !== 'delivery-status') return []
  const status = /Content-Type:\s*message\/delivery-status[^\n]*\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(raw)?.[1] ?? ''
  // The per-message fields, then one block per recipient.
  const blocks = status.split(/\r?\n\r?\n/).slice(1)
  const reports: MailReport[] = []
  for (const block of blocks) {
    const action = header(block, 'Action')?.toLowerCase()
    const code = header(block, 'Status') ?? ''
    // Hard: the mailbox or its domain does not exist or is disabled (5.1.x, 5.2.1). Other 5.x.x
    // (policy, the sender's reputation, the message) say nothing against the address: not counted.
    // A delay is not a failure: the mail may still arrive.
    if (action === 'failed' && /^5\.(1\.\d+|2\.1)\b/.test(code)) reports.push({ ...base, type: 'hard-bounce' })
    else if (action === 'failed' && /^4\./.test(code)) reports.push({ ...base, type: 'soft-bounce' })
  }
  // One event per report: a report about several of our recipients names them by their blocks.
  return reports.map((report, i) => ({
    ...report,
    eventId: report.eventId && reports.length > 1 ? `${report.eventId}#${i}` : report.eventId,
  }))
}
