// Webhooks' storage on PostgreSQL, the same as webhooks-sqlite.ts. Events and their deliveries are
// written by the trigger of db/postgres/009_webhooks.sql. Several instances claim with SKIP LOCKED
// and a lease: a delivery is never sent by two at once, and one whose worker died is taken again.
import type pg from 'pg'
import { inTransaction, iso, type Run } from '../shared/postgres.js'
import { writeAudit } from '../shared/postgres.js'
import type { ClaimedDelivery, WebhookAttemptRecord, WebhookEndpointRecord, WebhookStore } from '../types.js'
import { newMessageId } from './shared.js'

const ENDPOINT = `SELECT id, url, description, events, enabled, include_email, secret, previous_secret, ${iso('previous_until')} AS previous_until,
  disabled_reason, ${iso('failing_since')} AS failing_since, ${iso('created_at')} AS created_at, ${iso('updated_at')} AS updated_at FROM webhook_endpoints`

export function createPostgresWebhooks(pool: pg.Pool, run: Run): WebhookStore {
  return {
    endpoints: () => run(async () => (await pool.query<WebhookEndpointRecord>(`${ENDPOINT} ORDER BY id`)).rows),
    endpoint: (id) => run(async () => (await pool.query<WebhookEndpointRecord>(`${ENDPOINT} WHERE id = $1`, [id])).rows[0]),
    addEndpoint: (fields, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const { rows } = await client.query<{ id: number }>(
            'INSERT INTO webhook_endpoints (url, description, events, enabled, include_email, secret) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
            [fields.url, fields.description, JSON.stringify(fields.events), fields.enabled, fields.include_email, fields.secret],
          )
          const id = rows[0]?.id ?? 0
          await writeAudit(client, { ...audit, target: `webhook ${id}` })
          return id
        }),
      ),
    changeEndpoint: (id, change, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const { rows } = await client.query<WebhookEndpointRecord>(`${ENDPOINT} WHERE id = $1 FOR UPDATE`, [id])
          const current = rows[0]
          if (!current) return false
          const next = { ...current, ...change }
          const reenabled = change.enabled === true && !current.enabled
          await client.query(
            `UPDATE webhook_endpoints SET url = $1, description = $2, events = $3, enabled = $4, include_email = $5, updated_at = now(),
               disabled_reason = CASE WHEN $6 THEN NULL ELSE disabled_reason END, failing_since = CASE WHEN $6 THEN NULL ELSE failing_since END
             WHERE id = $7`,
            [next.url, next.description, JSON.stringify(next.events), next.enabled, next.include_email, reenabled, id],
          )
          await writeAudit(client, audit)
          return true
        }),
      ),
    removeEndpoint: (id, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const removed = ((await client.query('DELETE FROM webhook_endpoints WHERE id = $1', [id])).rowCount ?? 0) > 0
          if (removed) await writeAudit(client, audit)
          return removed
        }),
      ),
    rotateSecret: (id, secret, previousUntil, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const changed =
            ((
              await client.query(
                'UPDATE webhook_endpoints SET previous_secret = secret, previous_until = $1, secret = $2, updated_at = now() WHERE id = $3',
                [previousUntil, secret, id],
              )
            ).rowCount ?? 0) > 0
          if (changed) await writeAudit(client, audit)
          return changed
        }),
      ),
    claim: (limit, leaseMs) =>
      run(async () => {
        const { rows } = await pool.query<{
          id: string
          attempts: number
          message_id: string
          type: string
          data: Record<string, unknown>
          event_at: string
          endpoint_id: number
          url: string
          enabled: boolean
          secret: string
          previous_secret: string | null
          previous_until: string | null
          failing_since: string | null
          email: string | null
        }>(
          `WITH due AS (
             SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
             WHERE e.enabled AND ((d.state = 'pending' AND d.next_attempt_at <= now()) OR (d.state = 'delivering' AND d.lease_until < now()))
             ORDER BY d.next_attempt_at, d.id LIMIT $1 FOR UPDATE OF d SKIP LOCKED
           ), claimed AS (
             UPDATE webhook_deliveries d SET state = 'delivering', attempts = d.attempts + 1, lease_until = now() + $2 * interval '1 millisecond'
             FROM due WHERE d.id = due.id RETURNING d.id, d.attempts, d.event_id, d.endpoint_id
           )
           SELECT c.id::text AS id, c.attempts, ev.message_id, ev.type, ev.data, ${iso('ev.created_at')} AS event_at, e.id AS endpoint_id, e.url, e.enabled,
                  e.secret, e.previous_secret, ${iso('e.previous_until')} AS previous_until, ${iso('e.failing_since')} AS failing_since,
                  CASE WHEN e.include_email THEN w.email END AS email
           FROM claimed c JOIN webhook_events ev ON ev.id = c.event_id JOIN webhook_endpoints e ON e.id = c.endpoint_id
           LEFT JOIN waitlist w ON w.id = ev.signup_id`,
          [limit, leaseMs],
        )
        return rows.map((row): ClaimedDelivery => ({
          id: Number(row.id),
          attempt: row.attempts,
          messageId: row.message_id,
          type: row.type,
          data: row.data,
          eventAt: row.event_at,
          email: row.email,
          endpoint: {
            id: row.endpoint_id,
            url: row.url,
            enabled: row.enabled,
            secret: row.secret,
            previous_secret: row.previous_secret,
            previous_until: row.previous_until,
            failing_since: row.failing_since,
          },
        }))
      }),
    settle: (delivery, outcome) =>
      run(() =>
        inTransaction(pool, async (client) => {
          await client.query(
            `INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_type, attempt, at, duration_ms, status, response, error)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [
              delivery.id,
              delivery.endpoint.id,
              delivery.type,
              delivery.attempt,
              outcome.at,
              outcome.durationMs,
              outcome.status,
              outcome.response,
              outcome.error,
            ],
          )
          await client.query(
            `UPDATE webhook_deliveries SET state = $1, next_attempt_at = coalesce($2, next_attempt_at), lease_until = NULL, last_status = $3, last_error = $4,
               delivered_at = CASE WHEN $1 = 'delivered' THEN $5::timestamptz END WHERE id = $6`,
            [outcome.state, outcome.nextAttemptAt, outcome.status, outcome.error, outcome.at, delivery.id],
          )
          if (outcome.state === 'delivered')
            await client.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1', [delivery.endpoint.id])
          else
            await client.query('UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, $1) WHERE id = $2', [
              outcome.at,
              delivery.endpoint.id,
            ])
          if (outcome.disable !== null) {
            await client.query('UPDATE webhook_endpoints SET enabled = false, disabled_reason = $1, updated_at = now() WHERE id = $2', [
              outcome.disable,
              delivery.endpoint.id,
            ])
            // The owners are told by mail, queued with the change.
            await client.query(
              `INSERT INTO outbox (operator_id, kind, message_key, note)
               SELECT id, 'webhook-disabled', gen_random_uuid(), jsonb_build_object('endpoint', $1::int, 'url', $2::text, 'reason', $3::text)
               FROM operators WHERE role = 'owner' AND disabled_at IS NULL`,
              [delivery.endpoint.id, delivery.endpoint.url, outcome.disable],
            )
          }
        }),
      ),
    announce: (key, type, data) =>
      run(() =>
        inTransaction(pool, async (client) => {
          if (((await client.query('INSERT INTO webhook_announced (key) VALUES ($1) ON CONFLICT DO NOTHING', [key])).rowCount ?? 0) === 0)
            return false
          // The same function the sign-up trigger calls: an event only for a type some endpoint takes.
          await client.query('SELECT webhook_emit($1, NULL, $2::jsonb)', [type, JSON.stringify(data)])
          return true
        }),
      ),
    sendTest: (endpointId, data, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          if (!(await client.query('SELECT 1 FROM webhook_endpoints WHERE id = $1', [endpointId])).rowCount) return false
          // A test event goes to its one endpoint, whatever it takes.
          await client.query(
            `WITH event AS (INSERT INTO webhook_events (message_id, type, data) VALUES ($1, 'webhook.test', $2) RETURNING id)
             INSERT INTO webhook_deliveries (event_id, endpoint_id) SELECT id, $3 FROM event`,
            [newMessageId(), JSON.stringify(data), endpointId],
          )
          await writeAudit(client, audit)
          return true
        }),
      ),
    attempts: (endpointId, { before, limit }) =>
      run(async () => {
        const { rows } = await pool.query<Omit<WebhookAttemptRecord, 'id' | 'delivery_id'> & { id: string; delivery_id: string }>(
          `SELECT a.id::text AS id, a.delivery_id::text AS delivery_id, a.event_type, a.attempt, ${iso('a.at')} AS at, a.duration_ms, a.status, a.response,
                  a.error, d.state, ev.message_id
           FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhook_events ev ON ev.id = d.event_id
           WHERE a.endpoint_id = $1 AND a.id < $2 ORDER BY a.id DESC LIMIT $3`,
          [endpointId, before ?? Number.MAX_SAFE_INTEGER, limit],
        )
        return rows.map((row) => ({ ...row, id: Number(row.id), delivery_id: Number(row.delivery_id) }))
      }),
    resend: (endpointId, deliveryId, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const changed =
            ((
              await client.query(
                `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = now(), lease_until = NULL
                 WHERE id = $1 AND endpoint_id = $2 AND state IN ('failed', 'delivered', 'pending')`,
                [deliveryId, endpointId],
              )
            ).rowCount ?? 0) > 0
          if (changed) await writeAudit(client, audit)
          return changed
        }),
      ),
    resendFailed: (endpointId, since, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const changes =
            (
              await client.query(
                `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = now(), lease_until = NULL
                 WHERE endpoint_id = $1 AND state = 'failed' AND created_at >= $2`,
                [endpointId, since],
              )
            ).rowCount ?? 0
          await writeAudit(client, { ...audit, detail: { ...audit.detail, deliveries: changes } })
          return changes
        }),
      ),
    purge: (before) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const attempts = (await client.query('DELETE FROM webhook_attempts WHERE at < $1', [before])).rowCount ?? 0
          await client.query(`DELETE FROM webhook_deliveries WHERE state IN ('delivered', 'failed') AND created_at < $1`, [before])
          await client.query(
            'DELETE FROM webhook_events WHERE created_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = webhook_events.id)',
            [before],
          )
          return attempts
        }),
      ),
  }
}
