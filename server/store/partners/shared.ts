// What both stores' partners share (docs/decisions/025-partners.md): their tallies' kind, and the
// tallies turned into each partner's counts.
import { byKey, type TallyKind, type TallyRow } from '../tallies/shared.js'
import type { PartnerCounts } from '../types.js'

/** Every partner's sign-ups and confirmations (db/<dialect>/018), keyed by its id. */
export const PARTNER_TALLIES: readonly TallyKind[] = ['partner']

const FIELDS = ['signups', 'confirmed'] as const

/** Each partner's counts by its id (a partner with none counted: 0 and 0). */
export function partnerCountsOf(rows: readonly TallyRow[]): (id: number) => PartnerCounts {
  const counts = byKey(rows, FIELDS)
  return (id) => counts.get(String(id)) ?? { signups: 0, confirmed: 0 }
}

/** How many of each (countries, breeds) the breakdown lists at most. */
export const BREAKDOWN_LIMIT = 50
