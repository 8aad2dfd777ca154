// When a wave stops itself (docs/decisions/019-suppression.md): over a campaign's last PAUSE_WINDOW
// deliveries, hard bounces or complaints above the deployment's rates; never before
// PAUSE_MIN_DELIVERIES. The same for both stores.
import { PAUSE_MIN_DELIVERIES } from '../../../contract/mail-events.js'
import type { AuditEntry, PauseRule } from '../types.js'

/** Why the campaign should pause, or null. */
export function pauseReason(window: { deliveries: number; hard: number; complaints: number }, rule: PauseRule): string | null {
  const { deliveries, hard, complaints } = window
  if (deliveries < PAUSE_MIN_DELIVERIES) return null
  const percent = (n: number) => `${((n / deliveries) * 100).toFixed(1)} %`
  if (hard / deliveries > rule.bounceRate)
    return `hard bounces: ${hard} of the last ${deliveries} deliveries (${percent(hard)}, above ${(rule.bounceRate * 100).toFixed(1)} %)`
  if (complaints / deliveries > rule.complaintRate)
    return `complaints: ${complaints} of the last ${deliveries} deliveries (${percent(complaints)}, above ${(rule.complaintRate * 100).toFixed(2)} %)`
  return null
}

/** The audit log's line for a campaign the rule paused (no operator: the deliverability rule did). */
export const pausedByRule = (campaign: number, reason: string): AuditEntry => ({
  actorId: null,
  actor: 'deliverability',
  action: 'campaign paused',
  target: `campaign ${campaign}`,
  detail: { reason },
  requestId: null,
})
