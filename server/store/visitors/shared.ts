// What both stores' visitors share: the app link as the visitor's download tells it.
import type { VisitorData } from '../types.js'

/** The app link's row (none before a campaign mail made it) as the download says it. */
export function appDataOf(
  row: { code: string; created_at: string; invited_at: string | null; opened_at: string | null; claimed_at: string | null } | undefined,
): VisitorData['app'] {
  return {
    code: row?.code ?? null,
    link_made_at: row?.created_at ?? null,
    invited_at: row?.invited_at ?? null,
    opened_at: row?.opened_at ?? null,
    claimed: row?.claimed_at !== undefined && row.claimed_at !== null,
    claimed_at: row?.claimed_at ?? null,
  }
}
