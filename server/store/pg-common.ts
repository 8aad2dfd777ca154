// What the PostgreSQL store's parts share: moments as text, and one transaction on one connection.
import type pg from 'pg'

/** A timestamptz as ISO 8601 text in UTC, as the API answers moments. */
export const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

export type Run = <T>(work: () => Promise<T>) => Promise<T>

/** Runs `work` in one transaction on one pooled connection. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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
