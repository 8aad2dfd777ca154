// Webhooks' storage on SQLite (docs/decisions/018-webhooks.md). Events and their deliveries are
// written by the triggers of db/sqlite/009_webhooks.sql; this is the endpoints, the worker's claims
// and settlements, and the delivery log.
import type Database from 'better-sqlite3'
import { newMessageId } from './shared.js'
import { type Run, auditWriter, now } from '../shared/sqlite.js'
import type { ClaimedDelivery, WebhookAttemptRecord, WebhookEndpointRecord, WebhookStore } from '../types.js'

type EndpointRow = Omit<WebhookEndpointRecord, 'events' | 'enabled' | 'include_email'> & {
  events: string
  enabled: number
  include_email: number
}
const toEndpoint = (row: EndpointRow): WebhookEndpointRecord => ({
  ...row,
  events: JSON.parse(row.events) as string[],
  enabled: row.enabled === 1,
  include_email: row.include_email === 1,
})

export function createSqliteWebhooks(db: Database.Database, run: Run): WebhookStore {
  const writeAudit = auditWriter(db)
  // One process per file: whatever was being delivered when it last stopped is due again now.
  db.prepare(`UPDATE webhook_deliveries SET state = 'pending', lease_until = NULL WHERE state = 'delivering'`).run()
  const endpointById = db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?')
  const insertEvent = db.prepare('INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES (?, ?, NULL, ?)')

  const claimTx = db.transaction((limit: number, leaseMs: number): ClaimedDelivery[] => {
    const at = now()
    const rows = db
      .prepare(
        `UPDATE webhook_deliveries SET state = 'delivering', attempts = attempts + 1, lease_until = ?
         WHERE id IN (
           SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
           WHERE e.enabled = 1 AND ((d.state = 'pending' AND d.next_attempt_at <= ?) OR (d.state = 'delivering' AND d.lease_until < ?))
           ORDER BY d.next_attempt_at, d.id LIMIT ?)
         RETURNING id, attempts, event_id, endpoint_id`,
      )
      .all(new Date(Date.now() + leaseMs).toISOString(), at, at, limit) as {
      id: number
      attempts: number
      event_id: number
      endpoint_id: number
    }[]
    const detail = db.prepare(
      `SELECT ev.message_id, ev.type, ev.data, ev.created_at, e.id AS endpoint_id, e.url, e.enabled, e.secret, e.previous_secret,
              e.previous_until, e.failing_since, CASE WHEN e.include_email = 1 THEN w.email END AS email
       FROM webhook_events ev JOIN webhook_endpoints e ON e.id = ? LEFT JOIN waitlist w ON w.id = ev.signup_id WHERE ev.id = ?`,
    )
    return rows.map((row) => {
      const d = detail.get(row.endpoint_id, row.event_id) as {
        message_id: string
        type: string
        data: string
        created_at: string
        endpoint_id: number
        url: string
        enabled: number
        secret: string
        previous_secret: string | null
        previous_until: string | null
        failing_since: string | null
        email: string | null
      }
      return {
        id: row.id,
        attempt: row.attempts,
        messageId: d.message_id,
        type: d.type,
        data: JSON.parse(d.data) as Record<string, unknown>,
        eventAt: d.created_at,
        email: d.email,
        endpoint: {
          id: d.endpoint_id,
          url: d.url,
          enabled: d.enabled === 1,
          secret: d.secret,
          previous_secret: d.previous_secret,
          previous_until: d.previous_until,
          failing_since: d.failing_since,
        },
      }
    })
  })

  const settleTx = db.transaction((delivery: ClaimedDelivery, outcome: Parameters<WebhookStore['settle']>[1]) => {
    db.prepare(
      `INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_type, attempt, at, duration_ms, status, response, error)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      delivery.id,
      delivery.endpoint.id,
      delivery.type,
      delivery.attempt,
      outcome.at,
      outcome.durationMs,
      outcome.status,
      outcome.response,
      outcome.error,
    )
    db.prepare(
      `UPDATE webhook_deliveries SET state = ?, next_attempt_at = coalesce(?, next_attempt_at), lease_until = NULL, last_status = ?, last_error = ?,
         delivered_at = CASE WHEN ? = 'delivered' THEN ? END WHERE id = ?`,
    ).run(outcome.state, outcome.nextAttemptAt, outcome.status, outcome.error, outcome.state, outcome.at, delivery.id)
    if (outcome.state === 'delivered')
      db.prepare('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ?').run(delivery.endpoint.id)
    else
      db.prepare('UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ?) WHERE id = ?').run(
        outcome.at,
        delivery.endpoint.id,
      )
    if (outcome.disable !== null) {
      db.prepare('UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ?').run(
        outcome.disable,
        outcome.at,
        delivery.endpoint.id,
      )
      // The owners are told by mail, queued with the change.
      db.prepare(
        `INSERT INTO outbox (operator_id, kind, message_key, note, next_attempt_at, created_at)
         SELECT id, 'webhook-disabled', lower(hex(randomblob(16))), json_object('endpoint', ?, 'url', ?, 'reason', ?), ?, ?
         FROM operators WHERE role = 'owner' AND disabled_at IS NULL`,
      ).run(delivery.endpoint.id, delivery.endpoint.url, outcome.disable, outcome.at, outcome.at)
    }
  })

  return {
    endpoints: () => run(() => (db.prepare('SELECT * FROM webhook_endpoints ORDER BY id').all() as EndpointRow[]).map(toEndpoint)),
    endpoint: (id) =>
      run(() => {
        const row = endpointById.get(id) as EndpointRow | undefined
        return row ? toEndpoint(row) : undefined
      }),
    addEndpoint: (fields, audit) =>
      run(() =>
        db.transaction(() => {
          const { lastInsertRowid } = db
            .prepare('INSERT INTO webhook_endpoints (url, description, events, enabled, include_email, secret) VALUES (?, ?, ?, ?, ?, ?)')
            .run(
              fields.url,
              fields.description,
              JSON.stringify(fields.events),
              fields.enabled ? 1 : 0,
              fields.include_email ? 1 : 0,
              fields.secret,
            )
          const id = Number(lastInsertRowid)
          writeAudit({ ...audit, target: `webhook ${id}` })
          return id
        })(),
      ),
    changeEndpoint: (id, change, audit) =>
      run(() =>
        db.transaction(() => {
          const row = endpointById.get(id) as EndpointRow | undefined
          if (!row) return false
          const current = toEndpoint(row)
          const next = { ...current, ...change }
          const reenabled = change.enabled === true && !current.enabled
          db.prepare(
            `UPDATE webhook_endpoints SET url = ?, description = ?, events = ?, enabled = ?, include_email = ?, updated_at = ?,
               disabled_reason = CASE WHEN ? THEN NULL ELSE disabled_reason END, failing_since = CASE WHEN ? THEN NULL ELSE failing_since END
             WHERE id = ?`,
          ).run(
            next.url,
            next.description,
            JSON.stringify(next.events),
            next.enabled ? 1 : 0,
            next.include_email ? 1 : 0,
            now(),
            reenabled ? 1 : 0,
            reenabled ? 1 : 0,
            id,
          )
          writeAudit(audit)
          return true
        })(),
      ),
    removeEndpoint: (id, audit) =>
      run(() =>
        db.transaction(() => {
          const removed = db.prepare('DELETE FROM webhook_endpoints WHERE id = ?').run(id).changes > 0
          if (removed) writeAudit(audit)
          return removed
        })(),
      ),
    rotateSecret: (id, secret, previousUntil, audit) =>
      run(() =>
        db.transaction(() => {
          const changed =
            db
              .prepare('UPDATE webhook_endpoints SET previous_secret = secret, previous_until = ?, secret = ?, updated_at = ? WHERE id = ?')
              .run(previousUntil, secret, now(), id).changes > 0
          if (changed) writeAudit(audit)
          return changed
        })(),
      ),
    claim: (limit, leaseMs) => run(() => claimTx(limit, leaseMs)),
    settle: (delivery, outcome) => run(() => settleTx(delivery, outcome)),
    announce: (key, type, data) =>
      run(() =>
        db.transaction(() => {
          if (db.prepare('INSERT INTO webhook_announced (key) VALUES (?) ON CONFLICT DO NOTHING').run(key).changes === 0) return false
          const subscribed = db
            .prepare(
              `SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = ? LIMIT 1`,
            )
            .get(type)
          if (!subscribed) return true
          // Its deliveries are made by the table's fan-out trigger.
          insertEvent.run(newMessageId(), type, JSON.stringify(data))
          return true
        })(),
      ),
    sendTest: (endpointId, data, audit) =>
      run(() =>
        db.transaction(() => {
          if (!endpointById.get(endpointId)) return false
          const event = Number(insertEvent.run(newMessageId(), 'webhook.test', JSON.stringify(data)).lastInsertRowid)
          db.prepare('INSERT INTO webhook_deliveries (event_id, endpoint_id) VALUES (?, ?)').run(event, endpointId)
          writeAudit(audit)
          return true
        })(),
      ),
    attempts: (endpointId, { before, limit }) =>
      run(
        () =>
          db
            .prepare(
              `SELECT a.id, a.delivery_id, a.event_type, a.attempt, a.at, a.duration_ms, a.status, a.response, a.error, d.state, ev.message_id
               FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhook_events ev ON ev.id = d.event_id
               WHERE a.endpoint_id = ? AND a.id < ? ORDER BY a.id DESC LIMIT ?`,
            )
            .all(endpointId, before ?? Number.MAX_SAFE_INTEGER, limit) as WebhookAttemptRecord[],
      ),
    resend: (endpointId, deliveryId, audit) =>
      run(() =>
        db.transaction(() => {
          const changed =
            db
              .prepare(
                `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ?, lease_until = NULL
                 WHERE id = ? AND endpoint_id = ? AND state IN ('failed', 'delivered', 'pending')`,
              )
              .run(now(), deliveryId, endpointId).changes > 0
          if (changed) writeAudit(audit)
          return changed
        })(),
      ),
    resendFailed: (endpointId, since, audit) =>
      run(() =>
        db.transaction(() => {
          const { changes } = db
            .prepare(
              `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ?, lease_until = NULL WHERE endpoint_id = ? AND state = 'failed' AND created_at >= ?`,
            )
            .run(now(), endpointId, since)
          writeAudit({ ...audit, detail: { ...audit.detail, deliveries: changes } })
          return changes
        })(),
      ),
    purge: (before) =>
      run(() =>
        db.transaction(() => {
          const attempts = db.prepare('DELETE FROM webhook_attempts WHERE at < ?').run(before).changes
          db.prepare(`DELETE FROM webhook_deliveries WHERE state IN ('delivered', 'failed') AND created_at < ?`).run(before)
          db.prepare(
            'DELETE FROM webhook_events WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = webhook_events.id)',
          ).run(before)
          return attempts
        })(),
      ),
  }
}
