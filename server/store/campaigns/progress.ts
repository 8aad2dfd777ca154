// A campaign's progress from its row and its mails' states: the same for both stores.
import type { MailState } from '../../../contract/admin-api.js'
import type { CampaignProgress, Segment } from '../../../contract/campaigns.js'

export interface CampaignRow {
  id: number
  subject: string
  status: 'draft' | 'sending' | 'paused'
  recipients: number
  created_at: string
  segment: Segment
  paused_reason?: string | null
}

export const noMails = (): Record<MailState, number> => ({ queued: 0, sending: 0, sent: 0, failed: 0, bounced: 0 })

/** A sent campaign is finished once none of its mails waits (queued, or being sent). */
export function progressOf(row: CampaignRow, mails: Record<MailState, number> = noMails()): CampaignProgress {
  const queued = mails.queued + mails.sending
  return {
    id: row.id,
    subject: row.subject,
    status: row.status === 'draft' ? 'draft' : queued === 0 ? 'finished' : row.status,
    recipients: row.recipients,
    queued,
    sent: mails.sent,
    failed: mails.failed,
    bounced: mails.bounced,
    created_at: row.created_at,
    segment: row.segment,
    pausedReason: row.status === 'paused' ? (row.paused_reason ?? null) : null,
  }
}
