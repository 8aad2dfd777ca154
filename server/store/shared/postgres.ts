// What the PostgreSQL store's parts share: moments as text, and one transaction on one connection.
import type pg from 'pg'
import { type AuditEntry, StoreUnavailableError } from '../types.js'

/** A timestamptz as ISO 8601 text in UTC, as the API answers moments. */
export const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** A pooled connection or the pool: whatever a query may run on. */
export type Queryable = pg.Pool | pg.PoolClient

export type Run = <T>(work: () => Promise<T>) => Promise<T>

/** How often a transaction that lost a deadlock or a serialization race is tried again before it fails. */
export const TRANSACTION_ATTEMPTS = 5

/** A deadlock (40P01) or a serialization failure (40001): nothing was written, and trying again may pass. */
const isRetryable = (error: unknown) => ['40P01', '40001'].includes(String((error as { code?: unknown } | null)?.code))

/**
 * Runs `work` in one transaction on one pooled connection. A transaction that PostgreSQL chose as a
 * deadlock's victim, or that lost a serialization race, is rolled back whole and run again (up to
 * TRANSACTION_ATTEMPTS times, a short random wait between), so such a failure never reaches the
 * visitor: `work` must do nothing outside the transaction that it would be wrong to do twice.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once(pool, work)
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isRetryable(error)) throw error
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt))
    }
  }
}

async function once<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  // A server that goes away while the connection is checked out emits here, not only through the
  // query under way; without a listener that would crash the process. The query fails anyway.
  let lost: unknown
  const onError = (error: unknown) => (lost = error)
  client.on('error', onError)
  try {
    await client.query('BEGIN')
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined) // the connection may be gone; the first error is the one to report
    throw error
  } finally {
    client.off('error', onError)
    // A lost connection goes back destroyed, never to be handed out again.
    client.release(lost instanceof Error ? lost : undefined)
  }
}

/**
 * Connection trouble, shutdowns, timeouts and resource exhaustion are retryable (503). An error
 * with any other SQLSTATE is a bug of ours and stays an error (500, logged).
 */
export function toStoreError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code
  const sqlstate = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined
  if (sqlstate && !/^(08|53|57|58|40001|40P01|55P03|25006)/.test(sqlstate)) return error
  return new StoreUnavailableError(`PostgreSQL: ${describe(error)}`, { cause: error })
}

export function describe(error: unknown): string {
  if (error instanceof AggregateError) return error.errors.map(describe).join('; ')
  const { code, message } = error as { code?: unknown; message?: unknown }
  return [code, message].filter((part) => typeof part === 'string' && part !== '').join(': ') || String(error)
}

/** The audit log's writer: a line written in the transaction of what it records (when there is one). */
export async function writeAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query('INSERT INTO audit_log (actor_id, actor, action, target, detail, request_id) VALUES ($1, $2, $3, $4, $5, $6)', [
    entry.actorId,
    entry.actor,
    entry.action,
    entry.target,
    entry.detail === null ? null : JSON.stringify(entry.detail),
    entry.requestId,
  ])
}

/** How long a count off the request path may take (the requests' own statements stop at 5 s). */
export const COUNT_TIMEOUT_MS = 120_000

/** The last count each pool was given: counts wait for each other, so they hold one connection. */
const counting = new WeakMap<pg.Pool, Promise<unknown>>()

/**
 * A count off the request path (shared/figure-cache.ts): its statements in one read-only
 * transaction, one at a time, each allowed COUNT_TIMEOUT_MS; and one count at a time per pool, so
 * an operator asking breed after breed at a million sign-ups holds one of the pool's connections,
 * not all of them, and sign-ups keep theirs.
 */
export function countOffPath<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const count = (counting.get(pool) ?? Promise.resolve())
    .catch(() => undefined)
    .then(() =>
      inTransaction(pool, async (client) => {
        await client.query('SET TRANSACTION READ ONLY')
        await client.query(`SET LOCAL statement_timeout = ${COUNT_TIMEOUT_MS}`)
        return work(client)
      }),
    )
  counting.set(pool, count)
  return count
}
