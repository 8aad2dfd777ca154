// What every command of the command line shares: its usage error, and how the audit log names it.
import type { AuditEntry } from '../store/types.js'

/** A command used wrongly: its message is printed and the command exits with 2. */
export class UsageError extends Error {}

/** How the audit log names what the command line did (the shell's user is not known to us). */
export const CLI_ACTOR = 'command line'

export function cliAudit(
  action: AuditEntry['action'],
  target: string | null = null,
  detail: Record<string, unknown> | null = null,
): AuditEntry {
  return { actorId: null, actor: CLI_ACTOR, action, target, detail, requestId: null }
}
