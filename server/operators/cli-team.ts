// The command line's team commands (docs/decisions/017-the-team.md): a setup link for an operator
// (the same single-use link the first start prints), the team, and the audit log with its purge.
// What these and the other commands change is written to the audit log as the command line's.
import { isOperatorRole, OPERATOR_ROLES } from '../../contract/team.js'
import type { WaitlistStore } from '../store/types.js'
import { setupLink } from '../team/setup-link.js'
import { isValidEmail } from '../waitlist/check-row.js'
import { CLI_ACTOR, cliAudit, UsageError } from './cli-common.js'

export async function runOperator(
  store: WaitlistStore,
  siteUrl: string,
  [command, ...rest]: string[],
  options: { role?: string },
  out: (text: string) => void,
): Promise<number> {
  switch (command) {
    case 'invite': {
      const [email] = rest
      if (!email || !isValidEmail(email))
        throw new UsageError('operator invite: whose address? e.g. operator invite ada@example.com --role owner')
      const role = options.role ?? 'viewer'
      if (!isOperatorRole(role)) throw new UsageError(`--role: expected one of ${OPERATOR_ROLES.join(', ')}, got "${role}"`)
      if (await store.team.operatorByEmail(email)) throw new UsageError(`operator invite: ${email} is on the team already`)
      const link = await setupLink(store, siteUrl, { email, role }, CLI_ACTOR)
      out(`A single-use setup link for ${email} (${role}), valid for one hour:\n${link}\n`)
      return 0
    }
    case 'list': {
      const operators = await store.team.operators()
      if (operators.length === 0) out('no operator yet: start the server for the first setup link, or run operator invite\n')
      for (const o of operators)
        out(
          `${String(o.id).padStart(4)}  ${o.role.padEnd(6)}  ${o.disabled_at ? 'disabled' : 'enabled '}  ${o.passkeys} passkey(s)  ${o.email}${o.name ? ` (${o.name})` : ''}\n`,
        )
      return 0
    }
    default:
      throw new UsageError(`operator: expected "operator invite EMAIL --role ROLE" or "operator list", got "operator ${command ?? ''}"`)
  }
}

export async function runAudit(
  store: WaitlistStore,
  rest: string[],
  options: { before?: string; limit?: string },
  out: (text: string) => void,
): Promise<number> {
  if (rest[0] === 'purge') {
    const time = options.before === undefined ? Number.NaN : Date.parse(options.before)
    if (Number.isNaN(time)) throw new UsageError('audit purge: --before DATE is needed, e.g. --before 2026-01-01')
    const before = new Date(time).toISOString()
    const removed = await store.team.purgeAudit(before, cliAudit('audit purged'))
    out(`removed ${removed} line(s) of the audit log from before ${before}\n`)
    return 0
  }
  if (rest.length > 0)
    throw new UsageError(`audit: expected "audit [--limit N]" or "audit purge --before DATE", got "audit ${rest.join(' ')}"`)
  const limit = options.limit === undefined ? 50 : Number(options.limit)
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit: expected 1 to 1000, got "${options.limit}"`)
  const items = await store.team.auditLog({ limit })
  for (const item of items)
    out(
      `${item.at}  ${item.actor}  ${item.action}${item.target ? `  ${item.target}` : ''}${item.detail ? `  ${JSON.stringify(item.detail)}` : ''}\n`,
    )
  return 0
}
