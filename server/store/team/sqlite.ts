// The team's storage on SQLite (docs/decisions/017-the-team.md): operators, passkeys, links,
// sessions, API tokens and the audit log. Each change that is recorded in the audit log writes
// its line in the same transaction.
import type Database from 'better-sqlite3'
import { randomUUID } from 'node:crypto'
import { type AuditItem, type OperatorRole, TEAM_TIMES } from '../../../contract/team.js'
import { hashToken, newToken } from '../../secrets.js'
import type { AuditEntry, LinkRecord, OperatorRecord, PasskeyRecord, SessionRecord, TeamStore, TokenRecord } from '../types.js'
import { type Run, now, auditWriter } from '../shared/sqlite.js'

/** A token's last use is written at most this often (a script's every request is not a write). */
const TOKEN_USE_WRITE_MS = 60_000

const OPERATOR = `SELECT operators.*, (SELECT count(*) FROM operator_passkeys WHERE operator_id = operators.id) AS passkeys FROM operators`
const LINK_COLUMNS = 'id, purpose, email, role, operator_id, locale, expires_at'
const AUDIT_COLUMNS = 'id, at, actor, action, target, detail, request_id'

type PasskeyRow = Omit<PasskeyRecord, 'transports'> & { transports: string }
const toPasskey = (row: PasskeyRow): PasskeyRecord => ({ ...row, transports: JSON.parse(row.transports) as string[] })
type AuditRow = Omit<AuditItem, 'detail'> & { detail: string | null }
const toAuditItem = (row: AuditRow): AuditItem => ({
  ...row,
  detail: row.detail === null ? null : (JSON.parse(row.detail) as AuditItem['detail']),
})

/** Writes one line of the audit log; for use inside another statement's transaction too. */
export function createSqliteTeam(db: Database.Database, run: Run): TeamStore {
  const writeAudit = auditWriter(db)
  const operatorById = db.prepare(`${OPERATOR} WHERE id = ?`)
  const anyOperator = db.prepare('SELECT 1 FROM operators LIMIT 1')
  const allOperators = db.prepare(`${OPERATOR} ORDER BY id`)
  const operatorByEmail = db.prepare(`${OPERATOR} WHERE lower(email) = lower(?)`)
  const enabledOwners = db.prepare(`SELECT count(*) FROM operators WHERE role = 'owner' AND disabled_at IS NULL AND id <> ?`).pluck()
  const setRole = db.prepare('UPDATE operators SET role = @role WHERE id = @id')
  const setLocale = db.prepare('UPDATE operators SET locale = @locale WHERE id = @id')
  const setDisabled = db.prepare('UPDATE operators SET disabled_at = @at WHERE id = @id')
  const endSessionsOf = db.prepare('DELETE FROM operator_sessions WHERE operator_id = ?')
  const insertLink = db.prepare(
    `INSERT INTO operator_links (purpose, email, role, operator_id, locale, created_by, token_hash, expires_at, created_at)
     VALUES (@purpose, @email, @role, @operator_id, @locale, @createdBy, @tokenHash, @expires_at, @now) RETURNING id`,
  )
  const queueLinkMail = db.prepare(
    `INSERT INTO outbox (link_id, kind, message_key, next_attempt_at, created_at) VALUES (@linkId, @kind, @messageKey, @now, @now)`,
  )
  const openLink = db.prepare(`SELECT ${LINK_COLUMNS} FROM operator_links WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`)
  const useLink = db.prepare('UPDATE operator_links SET used_at = ? WHERE id = ? AND used_at IS NULL')
  const invitations = db.prepare(
    `SELECT ${LINK_COLUMNS}, created_at FROM operator_links
     WHERE purpose = 'invite' AND used_at IS NULL AND expires_at > ? ORDER BY id DESC`,
  )
  const signInLinksSince = db
    .prepare(`SELECT count(*) FROM operator_links WHERE purpose = 'sign-in' AND lower(email) = lower(?) AND created_at >= ?`)
    .pluck()
  const insertOperator = db.prepare(
    `INSERT INTO operators (email, name, role, user_handle, locale, created_at) VALUES (@email, @name, @role, @userHandle, @locale, @now) RETURNING id`,
  )
  const insertPasskey = db.prepare(
    `INSERT INTO operator_passkeys (id, operator_id, name, public_key, counter, transports, created_at)
     VALUES (@id, @operatorId, @name, @public_key, @counter, @transports, @now)`,
  )
  const usePasskey = db.prepare('UPDATE operator_passkeys SET counter = @counter, last_used_at = @now WHERE id = @id')
  const insertSession = db.prepare(
    `INSERT INTO operator_sessions (id_hash, operator_id, created_at, last_seen_at, expires_at) VALUES (@idHash, @operatorId, @now, @now, @expiresAt)`,
  )
  const endSession = db.prepare('DELETE FROM operator_sessions WHERE id_hash = ?')
  const passkeyById = db.prepare('SELECT * FROM operator_passkeys WHERE id = ?')
  const passkeysOf = db.prepare('SELECT * FROM operator_passkeys WHERE operator_id = ? ORDER BY created_at')
  const removePasskey = db.prepare('DELETE FROM operator_passkeys WHERE operator_id = ? AND id = ?')
  const putChallenge = db.prepare(
    'INSERT INTO webauthn_challenges (id, challenge, operator_id, user_handle, expires_at) VALUES (@id, @challenge, @operatorId, @userHandle, @expiresAt)',
  )
  const takeChallenge = db.prepare('DELETE FROM webauthn_challenges WHERE id = ? RETURNING challenge, operator_id, user_handle, expires_at')
  const forgetChallenges = db.prepare('DELETE FROM webauthn_challenges WHERE expires_at <= ?')
  const sessionById = db.prepare('SELECT operator_id, created_at, last_seen_at, expires_at FROM operator_sessions WHERE id_hash = ?')
  const touchSession = db.prepare('UPDATE operator_sessions SET last_seen_at = ? WHERE id_hash = ?')
  const insertToken = db.prepare(
    `INSERT INTO api_tokens (name, role, token_hash, created_by, created_at, expires_at) VALUES (@name, @role, @tokenHash, @createdBy, @now, @expiresAt) RETURNING id`,
  )
  const TOKEN_COLUMNS = 'id, name, role, created_at, expires_at, last_used_at, revoked_at'
  const tokens = db.prepare(`SELECT ${TOKEN_COLUMNS} FROM api_tokens ORDER BY id DESC`)
  const tokenByHash = db.prepare(
    `SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE token_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
  )
  const touchToken = db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?')
  const revokeToken = db.prepare('UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
  const closeInvitation = db.prepare(
    "UPDATE operator_links SET expires_at = @at WHERE id = @id AND purpose = 'invite' AND used_at IS NULL AND expires_at > @at",
  )
  const auditPage = db.prepare(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT ?`)
  const purge = db.prepare('DELETE FROM audit_log WHERE at < ?')

  const operator = (id: number) => operatorById.get(id) as OperatorRecord | undefined

  const changeOperator = db.transaction((id: number, change: { role?: OperatorRole; disabled?: boolean }, audit: AuditEntry) => {
    const found = operator(id)
    if (!found) return 'unknown' as const
    const stopsOwning =
      found.role === 'owner' &&
      found.disabled_at === null &&
      ((change.role !== undefined && change.role !== 'owner') || change.disabled === true)
    if (stopsOwning && Number(enabledOwners.get(id)) === 0) return 'last-owner' as const
    if (change.role !== undefined) setRole.run({ id, role: change.role })
    if (change.disabled !== undefined) setDisabled.run({ id, at: change.disabled ? now() : null })
    endSessionsOf.run(id)
    writeAudit(audit)
    return 'changed' as const
  })

  const addLink = db.transaction((link: Omit<LinkRecord, 'id'> & { createdBy: number | null }, mail: boolean, audit: AuditEntry | null) => {
    const at = now()
    const token = mail ? null : newToken()
    const { id } = insertLink.get({ ...link, tokenHash: token === null ? null : hashToken(token), now: at }) as { id: number }
    if (mail)
      queueLinkMail.run({
        linkId: id,
        kind: link.purpose === 'sign-in' ? 'team-sign-in' : 'team-invite',
        messageKey: randomUUID(),
        now: at,
      })
    if (audit) writeAudit(audit)
    return { id, token }
  })

  const signIn = db.transaction((request: Parameters<TeamStore['signIn']>[0]) => {
    const at = now()
    if (request.link) {
      const link = openLink.get(request.link.tokenHash, at) as LinkRecord | undefined
      if (!link || !request.link.purposes.includes(link.purpose) || useLink.run(at, link.id).changes !== 1) return undefined
    }
    let operatorId: number
    if ('id' in request.operator) operatorId = request.operator.id
    else {
      const { email, name, role, userHandle, locale } = request.operator
      operatorId = (insertOperator.get({ email, name, role: role ?? 'viewer', userHandle, locale, now: at }) as { id: number }).id
    }
    if (request.newPasskey)
      insertPasskey.run({ ...request.newPasskey, transports: JSON.stringify(request.newPasskey.transports), operatorId, now: at })
    if (request.usedPasskey) usePasskey.run({ ...request.usedPasskey, now: at })
    if (request.session.replaces) endSession.run(request.session.replaces)
    const expiresAt = new Date(Date.parse(at) + request.session.lengthMs).toISOString()
    insertSession.run({ idHash: request.session.idHash, operatorId, expiresAt, now: at })
    const signedIn = operator(operatorId)
    if (!signedIn || signedIn.disabled_at !== null) throw new Error(`operator ${operatorId} cannot sign in`)
    writeAudit({ ...request.audit, actorId: operatorId, actor: signedIn.email })
    return { operator: signedIn }
  })

  const addPasskey = db.transaction(
    (operatorId: number, passkey: Omit<PasskeyRecord, 'operator_id' | 'created_at' | 'last_used_at'>, audit: AuditEntry) => {
      insertPasskey.run({ ...passkey, transports: JSON.stringify(passkey.transports), operatorId, now: now() })
      writeAudit(audit)
    },
  )
  const dropPasskey = db.transaction((operatorId: number, id: string, audit: AuditEntry) => {
    const removed = removePasskey.run(operatorId, id).changes > 0
    if (removed) writeAudit(audit)
    return removed
  })
  const endOne = db.transaction((idHash: string, audit: AuditEntry | null) => {
    if (endSession.run(idHash).changes > 0 && audit) writeAudit(audit)
  })
  const addToken = db.transaction((token: Parameters<TeamStore['addToken']>[0], audit: AuditEntry) => {
    const { id } = insertToken.get({ ...token, now: now() }) as { id: number }
    writeAudit({ ...audit, target: `token ${id}` })
    return id
  })
  const revoke = db.transaction((id: number, audit: AuditEntry) => {
    const revoked = revokeToken.run(now(), id).changes > 0
    if (revoked) writeAudit(audit)
    return revoked
  })
  const revokeInvitation = db.transaction((id: number, audit: AuditEntry) => {
    const revoked = closeInvitation.run({ id, at: now() }).changes > 0
    if (revoked) writeAudit(audit)
    return revoked
  })
  const purgeBefore = db.transaction((before: string, audit: AuditEntry) => {
    const removed = purge.run(before).changes
    if (removed > 0) writeAudit({ ...audit, detail: { ...audit.detail, before, removed } })
    return removed
  })
  const seeSession = db.transaction((idHash: string, idleMs: number): SessionRecord | undefined => {
    const at = now()
    const found = sessionById.get(idHash) as
      { operator_id: number; created_at: string; last_seen_at: string; expires_at: string } | undefined
    if (!found) return undefined
    const who = operator(found.operator_id)
    if (found.expires_at <= at || Date.parse(found.last_seen_at) + idleMs <= Date.parse(at) || !who || who.disabled_at !== null) {
      endSession.run(idHash)
      return undefined
    }
    // Seen at most once a minute in writing (an hour's idle limit needs no finer clock): the admin
    // page's polls are not a write each.
    const stale = Date.parse(found.last_seen_at) + TEAM_TIMES.sessionSeenWriteMs <= Date.parse(at)
    if (stale) touchSession.run(at, idHash)
    return { operator: who, created_at: found.created_at, last_seen_at: stale ? at : found.last_seen_at, expires_at: found.expires_at }
  })

  return {
    hasOperators: () => run(() => anyOperator.get() !== undefined),
    operators: () => run(() => allOperators.all() as OperatorRecord[]),
    operator: (id) => run(() => operator(id)),
    operatorByEmail: (email) => run(() => operatorByEmail.get(email) as OperatorRecord | undefined),
    setOperatorLocale: (id, locale) => run(() => setLocale.run({ id, locale }).changes === 1),
    changeOperator: (id, change, audit) => run(() => changeOperator(id, change, audit)),
    addLink: (link, { mail, audit }) => run(() => addLink(link, mail, audit)),
    openLink: (tokenHash, purposes) =>
      run(() => {
        const link = openLink.get(tokenHash, now()) as LinkRecord | undefined
        return link && purposes.includes(link.purpose) ? link : undefined
      }),
    invitations: () => run(() => invitations.all(now()) as (LinkRecord & { created_at: string })[]),
    revokeInvitation: (id, audit) => run(() => revokeInvitation(id, audit)),
    signInLinksSince: (email, since) => run(() => Number(signInLinksSince.get(email, since))),
    signIn: (request) => run(() => signIn(request)),
    passkey: (id) => run(() => ((found) => (found ? toPasskey(found) : undefined))(passkeyById.get(id) as PasskeyRow | undefined)),
    passkeys: (operatorId) => run(() => (passkeysOf.all(operatorId) as PasskeyRow[]).map(toPasskey)),
    addPasskey: (operatorId, passkey, audit) => run(() => addPasskey(operatorId, passkey, audit)),
    removePasskey: (operatorId, id, audit) => run(() => dropPasskey(operatorId, id, audit)),
    putChallenge: (challenge) =>
      run(() => {
        forgetChallenges.run(now())
        putChallenge.run(challenge)
      }),
    takeChallenge: (id) =>
      run(() => {
        const found = takeChallenge.get(id) as
          { challenge: string; operator_id: number | null; user_handle: string | null; expires_at: string } | undefined
        return found && found.expires_at > now()
          ? { challenge: found.challenge, operatorId: found.operator_id, userHandle: found.user_handle }
          : undefined
      }),
    session: (idHash, idleMs) => run(() => seeSession(idHash, idleMs)),
    endSession: (idHash, audit) => run(() => endOne(idHash, audit)),
    addToken: (token, audit) => run(() => addToken(token, audit)),
    tokens: () => run(() => tokens.all() as TokenRecord[]),
    useToken: (tokenHash) =>
      run(() => {
        const at = now()
        const found = tokenByHash.get(tokenHash, at) as TokenRecord | undefined
        if (found && (found.last_used_at === null || Date.parse(found.last_used_at) + TOKEN_USE_WRITE_MS <= Date.parse(at)))
          touchToken.run(at, found.id)
        return found
      }),
    revokeToken: (id, audit) => run(() => revoke(id, audit)),
    audit: (entry) => run(() => writeAudit(entry)),
    auditLog: ({ before, limit }) => run(() => (auditPage.all(before ?? Number.MAX_SAFE_INTEGER, limit) as AuditRow[]).map(toAuditItem)),
    purgeAudit: (before, audit) => run(() => purgeBefore(before, audit)),
  }
}
