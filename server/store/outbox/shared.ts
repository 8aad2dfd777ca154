// What both stores' outboxes share: every mail's figures, from the tallies (docs/decisions/021-tallies.md).
import { MAIL_STATES, type MailState } from '../../../contract/admin-api.js'
import { deliveryFigures, MAIL_COUNTS } from '../../../contract/mail-figures.js'
import { ofKind, recordOf, type TallyKind, type TallyRow } from '../tallies/shared.js'
import type { MailFigures } from '../types.js'

/** The tallies every mail's figures are made of. */
export const FIGURES_TALLIES = ['outbox', 'mail'] as const satisfies readonly TallyKind[]

export function mailFiguresOf(tallies: readonly TallyRow[]): MailFigures {
  return {
    queue: recordOf(ofKind(tallies, 'outbox'), ['queued', 'sending', 'failed'] as const),
    delivery: deliveryFigures(recordOf(ofKind(tallies, 'mail'), MAIL_COUNTS)),
  }
}

/** The mails in each state now, every campaign's and the others' together. */
export const stateCounts = (tallies: readonly TallyRow[]): Record<MailState, number> => recordOf(ofKind(tallies, 'outbox'), MAIL_STATES)
