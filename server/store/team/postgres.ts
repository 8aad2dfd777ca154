// The team's storage on PostgreSQL (docs/decisions/017-the-team.md), the same as team-sqlite.ts:
// operators, passkeys, links, sessions, API tokens and the audit log, each audited change with
// its line in the same transaction.
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { type AuditItem, TEAM_TIMES } from '../../../contract/team.js'
import { hashToken, newToken } from '../../secrets.js'
import { inTransaction, iso, type Queryable, type Run, writeAudit } from '../shared/postgres.js'
import type { LinkRecord, OperatorRecord, PasskeyRecord, SessionRecord, TeamStore, TokenRecord } from '../types.js'

/** A token's last use is written at most this often (a script's every request is not a write). */
const TOKEN_USE_WRITE_MS = 60_000

const OPERATOR = `SELECT id, email, name, role, user_handle, locale, ${iso('disabled_at')} AS disabled_at, ${iso('created_at')} AS created_at,
  (SELECT count(*)::int FROM operator_passkeys WHERE operator_id = operators.id) AS passkeys FROM operators`
const LINK_COLUMNS = `id, purpose, email, role, operator_id, locale, ${iso('expires_at')} AS expires_at`
const PASSKEY_COLUMNS = `id, operator_id, name, public_key, counter::int AS counter, transports, ${iso('created_at')} AS created_at,
  ${iso('last_used_at')} AS last_used_at`
const TOKEN_COLUMNS = `id, name, role, ${iso('created_at')} AS created_at, ${iso('expires_at')} AS expires_at,
  ${iso('last_used_at')} AS last_used_at, ${iso('revoked_at')} AS revoked_at`

/** Writes one line of the audit log, on the connection of the transaction it belongs to. */

const operatorOf = async (db: Queryable, id: number) => (await db.query<OperatorRecord>(`${OPERATOR} WHERE id = $1`, [id])).rows[0]
const endSessionsOf = (db: Queryable, id: number) => db.query('DELETE FROM operator_sessions WHERE operator_id = $1', [id])

export function createPostgresTeam(pool: pg.Pool, run: Run): TeamStore {
  const tx = <T>(work: (client: pg.PoolClient) => Promise<T>) => run(() => inTransaction(pool, work))
  const openLink = async (db: Queryable, tokenHash: string, lock: boolean) =>
    (
      await db.query<LinkRecord>(
        `SELECT ${LINK_COLUMNS} FROM operator_links WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()${lock ? ' FOR UPDATE' : ''}`,
        [tokenHash],
      )
    ).rows[0]
  const insertPasskey = (db: Queryable, operatorId: number, passkey: Omit<PasskeyRecord, 'operator_id' | 'created_at' | 'last_used_at'>) =>
    db.query('INSERT INTO operator_passkeys (id, operator_id, name, public_key, counter, transports) VALUES ($1, $2, $3, $4, $5, $6)', [
      passkey.id,
      operatorId,
      passkey.name,
      passkey.public_key,
      passkey.counter,
      JSON.stringify(passkey.transports),
    ])

  return {
    hasOperators: () => run(async () => (await pool.query('SELECT 1 FROM operators LIMIT 1')).rows.length > 0),
    operators: () => run(async () => (await pool.query<OperatorRecord>(`${OPERATOR} ORDER BY id`)).rows),
    operator: (id) => run(() => operatorOf(pool, id)),
    operatorByEmail: (email) =>
      run(async () => (await pool.query<OperatorRecord>(`${OPERATOR} WHERE lower(email) = lower($1)`, [email])).rows[0]),
    setOperatorLocale: (id, locale) =>
      run(async () => ((await pool.query('UPDATE operators SET locale = $2 WHERE id = $1', [id, locale])).rowCount ?? 0) === 1),
    changeOperator: (id, change, audit) =>
      tx(async (client) => {
        // The owners are locked first: two owners demoting each other at once cannot both pass.
        await client.query(`SELECT id FROM operators WHERE role = 'owner' ORDER BY id FOR UPDATE`)
        const found = (await client.query<OperatorRecord>(`${OPERATOR} WHERE id = $1 FOR UPDATE`, [id])).rows[0]
        if (!found) return 'unknown'
        const stopsOwning =
          found.role === 'owner' &&
          found.disabled_at === null &&
          ((change.role !== undefined && change.role !== 'owner') || change.disabled === true)
        if (stopsOwning) {
          const others = await client.query(`SELECT 1 FROM operators WHERE role = 'owner' AND disabled_at IS NULL AND id <> $1`, [id])
          if (others.rows.length === 0) return 'last-owner'
        }
        if (change.role !== undefined) await client.query('UPDATE operators SET role = $2 WHERE id = $1', [id, change.role])
        if (change.disabled !== undefined)
          await client.query(`UPDATE operators SET disabled_at = ${change.disabled ? 'now()' : 'NULL'} WHERE id = $1`, [id])
        await endSessionsOf(client, id)
        await writeAudit(client, audit)
        return 'changed'
      }),
    addLink: (link, { mail, audit }) =>
      tx(async (client) => {
        const token = mail ? null : newToken()
        const { rows } = await client.query<{ id: number }>(
          `INSERT INTO operator_links (purpose, email, role, operator_id, created_by, token_hash, expires_at, locale)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
          [
            link.purpose,
            link.email,
            link.role,
            link.operator_id,
            link.createdBy,
            token === null ? null : hashToken(token),
            link.expires_at,
            link.locale,
          ],
        )
        const id = rows[0]?.id ?? 0
        if (mail)
          await client.query('INSERT INTO outbox (link_id, kind, message_key) VALUES ($1, $2, $3)', [
            id,
            link.purpose === 'sign-in' ? 'team-sign-in' : 'team-invite',
            randomUUID(),
          ])
        if (audit) await writeAudit(client, audit)
        return { id, token }
      }),
    openLink: (tokenHash, purposes) =>
      run(async () => {
        const link = await openLink(pool, tokenHash, false)
        return link && purposes.includes(link.purpose) ? link : undefined
      }),
    invitations: () =>
      run(
        async () =>
          (
            await pool.query<LinkRecord & { created_at: string }>(
              `SELECT ${LINK_COLUMNS}, ${iso('created_at')} AS created_at FROM operator_links
               WHERE purpose = 'invite' AND used_at IS NULL AND expires_at > now() ORDER BY id DESC`,
            )
          ).rows,
      ),
    revokeInvitation: (id, audit) =>
      tx(async (client) => {
        const { rowCount } = await client.query(
          `UPDATE operator_links SET expires_at = now()
           WHERE id = $1 AND purpose = 'invite' AND used_at IS NULL AND expires_at > now()`,
          [id],
        )
        const revoked = (rowCount ?? 0) > 0
        if (revoked) await writeAudit(client, audit)
        return revoked
      }),
    signInLinksSince: (email, since) =>
      run(async () => {
        const { rows } = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM operator_links WHERE purpose = 'sign-in' AND lower(email) = lower($1) AND created_at >= $2`,
          [email, since],
        )
        return rows[0]?.n ?? 0
      }),
    signIn: (request) =>
      tx(async (client) => {
        if (request.link) {
          // Locked, then used: two presses of one link cannot both sign in.
          const link = await openLink(client, request.link.tokenHash, true)
          if (!link || !request.link.purposes.includes(link.purpose)) return undefined
          await client.query('UPDATE operator_links SET used_at = now() WHERE id = $1', [link.id])
        }
        let operatorId: number
        if ('id' in request.operator) operatorId = request.operator.id
        else {
          const { email, name, role, userHandle, locale } = request.operator
          const { rows } = await client.query<{ id: number }>(
            'INSERT INTO operators (email, name, role, user_handle, locale) VALUES ($1, $2, $3, $4, $5) RETURNING id',
            [email, name, role ?? 'viewer', userHandle, locale],
          )
          operatorId = rows[0]?.id ?? 0
        }
        if (request.newPasskey) await insertPasskey(client, operatorId, request.newPasskey)
        if (request.usedPasskey)
          await client.query('UPDATE operator_passkeys SET counter = $2, last_used_at = now() WHERE id = $1', [
            request.usedPasskey.id,
            request.usedPasskey.counter,
          ])
        if (request.session.replaces) await client.query('DELETE FROM operator_sessions WHERE id_hash = $1', [request.session.replaces])
        // Its start (created_at's default, the transaction's now()) and its end from one clock.
        await client.query(
          `INSERT INTO operator_sessions (id_hash, operator_id, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')`,
          [request.session.idHash, operatorId, request.session.lengthMs],
        )
        const signedIn = await operatorOf(client, operatorId)
        if (!signedIn || signedIn.disabled_at !== null) throw new Error(`operator ${operatorId} cannot sign in`)
        await writeAudit(client, { ...request.audit, actorId: operatorId, actor: signedIn.email })
        return { operator: signedIn }
      }),
    passkey: (id) =>
      run(async () => (await pool.query<PasskeyRecord>(`SELECT ${PASSKEY_COLUMNS} FROM operator_passkeys WHERE id = $1`, [id])).rows[0]),
    passkeys: (operatorId) =>
      run(
        async () =>
          (
            await pool.query<PasskeyRecord>(`SELECT ${PASSKEY_COLUMNS} FROM operator_passkeys WHERE operator_id = $1 ORDER BY created_at`, [
              operatorId,
            ])
          ).rows,
      ),
    addPasskey: (operatorId, passkey, audit) =>
      tx(async (client) => {
        await insertPasskey(client, operatorId, passkey)
        await writeAudit(client, audit)
      }),
    removePasskey: (operatorId, id, audit) =>
      tx(async (client) => {
        const removed =
          ((await client.query('DELETE FROM operator_passkeys WHERE operator_id = $1 AND id = $2', [operatorId, id])).rowCount ?? 0) > 0
        if (removed) await writeAudit(client, audit)
        return removed
      }),
    putChallenge: ({ id, challenge, operatorId, userHandle, expiresAt }) =>
      run(async () => {
        await pool.query('DELETE FROM webauthn_challenges WHERE expires_at <= now()')
        await pool.query(
          'INSERT INTO webauthn_challenges (id, challenge, operator_id, user_handle, expires_at) VALUES ($1, $2, $3, $4, $5)',
          [id, challenge, operatorId, userHandle, expiresAt],
        )
      }),
    takeChallenge: (id) =>
      run(async () => {
        const { rows } = await pool.query<{ challenge: string; operator_id: number | null; user_handle: string | null; live: boolean }>(
          'DELETE FROM webauthn_challenges WHERE id = $1 RETURNING challenge, operator_id, user_handle, expires_at > now() AS live',
          [id],
        )
        const found = rows[0]
        return found?.live ? { challenge: found.challenge, operatorId: found.operator_id, userHandle: found.user_handle } : undefined
      }),
    session: (idHash, idleMs) =>
      run(async () => {
        // Seen, in one statement: a live session's last sight is written at most once a minute (the
        // admin page's polls are not a write each); an expired or idle one is ended below.
        const { rows } = await pool.query<{ operator_id: number; created_at: string; last_seen_at: string; expires_at: string }>(
          `WITH live AS (
             SELECT operator_id, created_at, last_seen_at, expires_at FROM operator_sessions
             WHERE id_hash = $1 AND expires_at > now() AND last_seen_at > now() - $2 * interval '1 millisecond'
           ), seen AS (
             UPDATE operator_sessions SET last_seen_at = now()
             WHERE id_hash = $1 AND last_seen_at <= now() - $3 * interval '1 millisecond' AND EXISTS (SELECT 1 FROM live)
           )
           SELECT operator_id, ${iso('created_at')} AS created_at, ${iso('last_seen_at')} AS last_seen_at, ${iso('expires_at')} AS expires_at FROM live`,
          [idHash, idleMs, TEAM_TIMES.sessionSeenWriteMs],
        )
        const found = rows[0]
        const who = found ? await operatorOf(pool, found.operator_id) : undefined
        if (!found || !who || who.disabled_at !== null) {
          await pool.query('DELETE FROM operator_sessions WHERE id_hash = $1', [idHash])
          return undefined
        }
        return {
          operator: who,
          created_at: found.created_at,
          last_seen_at: found.last_seen_at,
          expires_at: found.expires_at,
        } satisfies SessionRecord
      }),
    endSession: (idHash, audit) =>
      tx(async (client) => {
        const ended = ((await client.query('DELETE FROM operator_sessions WHERE id_hash = $1', [idHash])).rowCount ?? 0) > 0
        if (ended && audit) await writeAudit(client, audit)
      }),
    addToken: (token, audit) =>
      tx(async (client) => {
        const { rows } = await client.query<{ id: number }>(
          'INSERT INTO api_tokens (name, role, token_hash, created_by, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
          [token.name, token.role, token.tokenHash, token.createdBy, token.expiresAt],
        )
        const id = rows[0]?.id ?? 0
        await writeAudit(client, { ...audit, target: `token ${id}` })
        return id
      }),
    tokens: () => run(async () => (await pool.query<TokenRecord>(`SELECT ${TOKEN_COLUMNS} FROM api_tokens ORDER BY id DESC`)).rows),
    useToken: (tokenHash) =>
      run(async () => {
        const found = (
          await pool.query<TokenRecord>(
            `SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
            [tokenHash],
          )
        ).rows[0]
        if (found && (found.last_used_at === null || Date.parse(found.last_used_at) + TOKEN_USE_WRITE_MS <= Date.now()))
          await pool.query('UPDATE api_tokens SET last_used_at = now() WHERE id = $1', [found.id])
        return found
      }),
    revokeToken: (id, audit) =>
      tx(async (client) => {
        const revoked =
          ((await client.query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id])).rowCount ?? 0) > 0
        if (revoked) await writeAudit(client, audit)
        return revoked
      }),
    audit: (entry) => run(() => writeAudit(pool, entry)),
    auditLog: ({ before, limit }) =>
      run(async () => {
        // Ordered by the column, not by the text it is answered as ("9" sorts after "10").
        const { rows } = await pool.query<Omit<AuditItem, 'id'> & { id: string }>(
          `SELECT id::text AS id, ${iso('at')} AS at, actor, action, target, detail, request_id FROM audit_log
           WHERE audit_log.id < $1 ORDER BY audit_log.id DESC LIMIT $2`,
          [before ?? Number.MAX_SAFE_INTEGER, limit],
        )
        return rows.map((row) => ({ ...row, id: Number(row.id) }))
      }),
    purgeAudit: (before, audit) =>
      tx(async (client) => {
        const removed = (await client.query('DELETE FROM audit_log WHERE at < $1', [before])).rowCount ?? 0
        if (removed > 0) await writeAudit(client, { ...audit, detail: { ...audit.detail, before, removed } })
        return removed
      }),
  }
}
