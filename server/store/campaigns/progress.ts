// A campaign's progress from its row and its tallies (the outbox's states, and what became of its
// mails as Deliverability counts it): the same for both stores.
import { MAIL_STATES, type MailState } from '../../../contract/admin-api.js'
import type { CampaignProgress, Segment } from '../../../contract/campaigns.js'
import { deliveryFigures, MAIL_COUNTS } from '../../../contract/mail-figures.js'
import { byKey, ofKind, type TallyKind, type TallyRow } from '../tallies/shared.js'

export interface CampaignRow {
  id: number
  subject: string
  status: 'draft' | 'sending' | 'paused'
  recipients: number
  created_at: string
  segment: Segment
  paused_reason?: string | null
}

/** The tallies a campaign's progress is made of. */
export const PROGRESS_TALLIES = ['outbox', 'mail-campaign'] as const satisfies readonly TallyKind[]

const noMails = (): Record<MailState, number> => ({ queued: 0, sending: 0, sent: 0, failed: 0, bounced: 0 })

/** Each campaign's progress from its row and the tallies of PROGRESS_TALLIES (keyed by its id). */
export function progressOf(rows: readonly CampaignRow[], tallies: readonly TallyRow[]): CampaignProgress[] {
  const states = byKey(ofKind(tallies, 'outbox'), MAIL_STATES)
  const mails = byKey(ofKind(tallies, 'mail-campaign'), MAIL_COUNTS)
  return rows.map((row) => {
    const state = states.get(String(row.id)) ?? noMails()
    const queued = state.queued + state.sending
    return {
      id: row.id,
      subject: row.subject,
      // A sent campaign is finished once none of its mails waits (queued, or being sent).
      status: row.status === 'draft' ? 'draft' : queued === 0 ? 'finished' : row.status,
      recipients: row.recipients,
      queued,
      failed: state.failed,
      delivery: deliveryFigures(mails.get(String(row.id)) ?? { sent: 0, refused: 0, hard: 0, soft: 0, complained: 0, unsubscribed: 0 }),
      created_at: row.created_at,
      segment: row.segment,
      pausedReason: row.status === 'paused' ? (row.paused_reason ?? null) : null,
    }
  })
}
