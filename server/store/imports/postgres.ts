// Imports in PostgreSQL, as imports/sqlite.ts: one running import for every instance (the unique
// running row), each batch one transaction that first takes the import's row (a cancel waits for
// it, or it sees the cancel and writes nothing), and no webhook per row (SET LOCAL kennect.importing:
// db/postgres/019's webhook_emit writes nothing while it is on).
import type pg from 'pg'
import { importSource } from '../../../contract/imports.js'
import { inTransaction, iso, type Queryable, type Run, writeAudit } from '../shared/postgres.js'
import type { AuditEntry, ImportBatch, ImportLine, ImportRecord, ImportStore } from '../types.js'
import {
  addressKey,
  auditDetail,
  breedRows,
  countsOf,
  decide,
  type Existing,
  finishedAudit,
  type ImportRow,
  LEASE_LOST,
  statusOf,
  unreadKeys,
} from './shared.js'

/** An imports row with its moments as the API says them. */
const COLUMNS = `id::int AS id, status, mode, existing, basis, label, sha256, bytes::text AS bytes, read_bytes::text AS read_bytes, ignored_columns, actor, actor_id::int AS actor_id,
  records, processed, added, filled, skipped, failed, ${iso('started_at')} AS started_at, ${iso('finished_at')} AS finished_at, error`

type Row = ImportRow & { actor_id: number | null }

/** An import whose worker stopped renewing its lease failed: its prefix stays, and the log says so. */
async function expire(db: Queryable): Promise<void> {
  const { rows } = await db.query<Row>(
    `UPDATE imports SET status = 'failed', finished_at = now(), error = $1, lease_until = NULL
     WHERE status = 'running' AND lease_until <= now() RETURNING ${COLUMNS}`,
    [LEASE_LOST],
  )
  for (const row of rows) await writeAudit(db, finishedAudit(statusOf(row), row.actor_id))
}

async function subscribe(client: pg.PoolClient, id: number, records: readonly ImportRecord[], existing: 'skip' | 'fill') {
  // The sign-ups named, locked in one order: a visitor confirming or stopping e-mails meanwhile waits
  // for the batch, or the batch for them, so the import sees what it changes as it is.
  const signups = new Map<string, Existing>()
  const found = await client.query<
    Omit<Existing, 'breeds'> & { key: string; breeds: [number, string | null, string | null, string | null][] }
  >(
    `SELECT w.id::int AS id, lower(w.email) AS key, w.confirmed_at IS NOT NULL AS confirmed, w.unsubscribed_at IS NOT NULL AS unsubscribed,
       w.role, w.country,
       coalesce((SELECT json_agg(json_build_array(position, breed, name_key, side)) FROM signup_breeds WHERE signup_id = w.id), '[]') AS breeds
     FROM waitlist AS w WHERE lower(w.email) = ANY($1::text[]) ORDER BY w.id FOR UPDATE OF w`,
    [records.map((record) => addressKey(record.email))],
  )
  for (const row of found.rows)
    signups.set(row.key, { ...row, breeds: row.breeds.map(([position, breed, key, side]) => ({ position, breed, key, side })) })
  const suppressed = await client.query<{ email_hash: string }>('SELECT email_hash FROM suppressions WHERE email_hash = ANY($1::text[])', [
    records.map((record) => record.emailHash),
  ])
  const decision = decide(records, signups, new Set(suppressed.rows.map((row) => row.email_hash)), existing)
  const unknown = unreadKeys([...decision.inserts, ...decision.fills])
  const mapped = new Map<string, string>()
  if (unknown.length > 0)
    for (const row of (
      await client.query<{ name_key: string; breed: string }>(
        'SELECT name_key, breed FROM breed_mappings WHERE name_key = ANY($1::text[])',
        [unknown],
      )
    ).rows)
      mapped.set(row.name_key, row.breed)
  const made = new Map<string, number>()
  if (decision.inserts.length > 0) {
    // Sign-ups as the join makes them, less its mail: no confirmation queued, no inviter, no phone.
    const inserted = await client.query<{ id: number; key: string }>(
      `INSERT INTO waitlist (email, utm_source, locale, country, role, import_id)
       SELECT email, $2, locale, country, role, $3 FROM jsonb_to_recordset($1) AS r (email text, locale text, country text, role text)
       ON CONFLICT DO NOTHING RETURNING id::int AS id, lower(email) AS key`,
      [
        JSON.stringify(decision.inserts.map(({ email, locale, country, role }) => ({ email, locale, country, role }))),
        importSource(id),
        id,
      ],
    )
    for (const row of inserted.rows) made.set(row.key, row.id)
  }
  const breeds: ReturnType<typeof breedRows> = []
  const lines = [...decision.lines]
  for (const record of decision.inserts) {
    const signupId = made.get(addressKey(record.email))
    // A visitor who joined between the look and the insert: theirs is the sign-up.
    if (signupId === undefined) lines.push({ line: record.line, email: record.email, reason: 'exists' })
    else breeds.push(...breedRows(signupId, record.breeds, record.side, record.country, false, mapped))
  }
  const filledFields = decision.fills.filter((fill) => fill.country !== null || fill.role !== null)
  if (filledFields.length > 0)
    await client.query(
      `UPDATE waitlist SET country = coalesce(waitlist.country, r.country), role = coalesce(waitlist.role, r.role)
       FROM jsonb_to_recordset($1) AS r (id bigint, country text, role text) WHERE waitlist.id = r.id`,
      [JSON.stringify(filledFields.map(({ id: signupId, country, role }) => ({ id: signupId, country, role })))],
    )
  for (const fill of decision.fills) breeds.push(...breedRows(fill.id, fill.breeds, fill.side, fill.rowCountry, fill.counted, mapped))
  const sides = decision.fills.flatMap((fill) => fill.sides.map((side) => ({ id: fill.id, ...side })))
  if (sides.length > 0)
    await client.query(
      `UPDATE signup_breeds SET side = r.side FROM jsonb_to_recordset($1) AS r (id bigint, position int, side text)
       WHERE signup_breeds.signup_id = r.id AND signup_breeds.position = r.position AND signup_breeds.side IS NULL`,
      [JSON.stringify(sides)],
    )
  if (breeds.length > 0)
    await client.query(
      `INSERT INTO signup_breeds (signup_id, position, name, name_key, breed, side, country, counted)
       SELECT "signupId", position, name, key, breed, side, country, counted
       FROM jsonb_to_recordset($1) AS r ("signupId" bigint, position int, name text, key text, breed text, side text, country text, counted boolean)`,
      [JSON.stringify(breeds)],
    )
  return { added: made.size, filled: decision.fills.length, lines }
}

/** Suppress mode: the list, and each sign-up of the address stops e-mails, its queued mails dropped. */
async function suppressAll(client: pg.PoolClient, records: readonly ImportRecord[]) {
  if (records.length === 0) return { added: 0, filled: 0, lines: [] as ImportLine[] }
  const found = await client.query<{ id: string; key: string }>(
    'SELECT id::text, lower(email) AS key FROM waitlist WHERE lower(email) = ANY($1::text[]) ORDER BY id FOR UPDATE',
    [records.map((r) => addressKey(r.email))],
  )
  const ids = new Map(found.rows.map((row) => [row.key, row.id]))
  const added = await client.query<{ email_hash: string }>(
    `INSERT INTO suppressions (email_hash, email, reason)
     SELECT hash, email, 'imported' FROM jsonb_to_recordset($1) AS r (hash text, email text)
     ON CONFLICT (email_hash) DO NOTHING RETURNING email_hash`,
    [JSON.stringify(records.map((r) => ({ hash: r.emailHash, email: ids.has(addressKey(r.email)) ? addressKey(r.email) : null })))],
  )
  if (ids.size > 0) {
    await client.query('UPDATE waitlist SET unsubscribed_at = now() WHERE id = ANY($1::bigint[]) AND unsubscribed_at IS NULL', [
      [...ids.values()],
    ])
    await client.query(
      `UPDATE outbox SET state = 'failed', token = NULL, last_error = 'suppressed' WHERE signup_id = ANY($1::bigint[]) AND state = 'queued'`,
      [[...ids.values()]],
    )
  }
  const newly = new Set(added.rows.map((row) => row.email_hash))
  const lines: ImportLine[] = records
    .filter((r) => !newly.has(r.emailHash))
    .map((r) => ({ line: r.line, email: r.email, reason: 'suppressed' }))
  return { added: newly.size, filled: 0, lines }
}

export function createPostgresImports(pool: pg.Pool, run: Run): ImportStore {
  const expireStale = async () => {
    const { rows } = await pool.query(`SELECT 1 FROM imports WHERE status = 'running' AND lease_until <= now()`)
    if (rows.length > 0) await inTransaction(pool, expire)
  }
  return {
    // A batch is a dozen round trips whatever its size, and waits on the network with the event loop
    // free: larger batches than SQLite's, a short rest (the database's cores serve sign-ups too). 250,
    // not 500: half the work between two waits; the loop held at most 21 to 47 ms in four runs, 500's
    // 52 and 57, for 33 to 41 s against 30 to 32 (docs/performance.md).
    pace: { records: 250, rest: 0.25 },
    start: (fields, audit) =>
      run(() =>
        inTransaction(pool, async (client) => {
          await expire(client)
          const entry = audit(0)
          // Another instance's running import holds the one running row: this one waits for nothing.
          await client.query('SAVEPOINT start')
          try {
            const { rows } = await client.query<Row>(
              `INSERT INTO imports (mode, existing, basis, label, sha256, bytes, ignored_columns, actor_id, actor, lease_until)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + $10 * interval '1 millisecond') RETURNING ${COLUMNS}`,
              [
                fields.mode,
                fields.existing,
                fields.basis,
                fields.label,
                fields.sha256,
                fields.bytes,
                JSON.stringify(fields.ignoredColumns),
                entry.actorId,
                entry.actor,
                fields.leaseMs,
              ],
            )
            const status = statusOf(rows[0] as Row)
            await writeAudit(client, { ...audit(status.id), detail: auditDetail(status) })
            return { id: status.id }
          } catch (error) {
            if ((error as { code?: string }).code !== '23505') throw error
            await client.query('ROLLBACK TO SAVEPOINT start')
            return 'busy' as const
          }
        }),
      ),
    running: () =>
      run(async () => (await pool.query(`SELECT 1 FROM imports WHERE status = 'running' AND lease_until > now()`)).rows.length > 0),
    write: (id, batch: ImportBatch, leaseMs) =>
      run(() =>
        inTransaction(pool, async (client) => {
          // The import's row first: a cancel waits for this batch, or this batch sees it and writes nothing.
          const held = await client.query<{ mode: 'subscribe' | 'suppress'; existing: 'skip' | 'fill' }>(
            `UPDATE imports SET lease_until = now() + $2 * interval '1 millisecond' WHERE id = $1 AND status = 'running' RETURNING mode, existing`,
            [id, leaseMs],
          )
          const setting = held.rows[0]
          if (!setting) return false
          await client.query(`SELECT set_config('kennect.importing', 'on', true)`)
          const done =
            setting.mode === 'subscribe'
              ? await subscribe(client, id, batch.records, setting.existing)
              : await suppressAll(client, batch.records)
          await client.query(`SELECT set_config('kennect.importing', 'off', true)`)
          const lines = [...batch.lines, ...done.lines].sort((a, b) => a.line - b.line)
          if (lines.length > 0)
            await client.query(
              `INSERT INTO import_errors (import_id, line, email, reason) SELECT $1, line, email, reason
               FROM jsonb_to_recordset($2) AS r (line int, email text, reason text)`,
              [id, JSON.stringify(lines)],
            )
          const counts = countsOf(done.added, done.filled, lines)
          await client.query(
            `UPDATE imports SET processed = processed + $2, added = added + $3, filled = filled + $4, skipped = skipped + $5, failed = failed + $6,
               read_bytes = greatest(read_bytes, $7) WHERE id = $1`,
            [id, counts.processed, counts.added, counts.filled, counts.skipped, counts.failed, batch.readBytes],
          )
          return true
        }),
      ),
    renew: (id, leaseMs) =>
      run(
        async () =>
          ((
            await pool.query(
              `UPDATE imports SET lease_until = now() + $2 * interval '1 millisecond' WHERE id = $1 AND status = 'running'`,
              [id, leaseMs],
            )
          ).rowCount ?? 0) > 0,
      ),
    finish: (id, end) =>
      run(() =>
        inTransaction(pool, async (client) => {
          const { rows } = await client.query<Row>(
            `UPDATE imports SET status = $2, records = $3, error = $4, finished_at = now(), lease_until = NULL
             WHERE id = $1 AND status = 'running' RETURNING ${COLUMNS}`,
            [id, end.status, end.rows, end.error],
          )
          const row = rows[0]
          if (row) await writeAudit(client, finishedAudit(statusOf(row), row.actor_id))
          return row !== undefined
        }),
      ),
    cancel: (id, audit: AuditEntry) =>
      run(() =>
        inTransaction(pool, async (client) => {
          await expire(client)
          const { rows } = await client.query<Row>(
            `UPDATE imports SET status = 'cancelled', finished_at = now(), lease_until = NULL WHERE id = $1 AND status = 'running' RETURNING ${COLUMNS}`,
            [id],
          )
          const row = rows[0]
          if (!row)
            return (await client.query('SELECT 1 FROM imports WHERE id = $1', [id])).rows.length === 0 ? undefined : ('ended' as const)
          const status = statusOf(row)
          await writeAudit(client, { ...audit, detail: auditDetail(status) })
          return status
        }),
      ),
    status: (id) =>
      run(async () => {
        await expireStale()
        const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM imports WHERE id = $1`, [id])
        return rows[0] && statusOf(rows[0])
      }),
    list: (limit) =>
      run(async () => {
        await expireStale()
        return (await pool.query<Row>(`SELECT ${COLUMNS} FROM imports ORDER BY id DESC LIMIT $1`, [limit])).rows.map(statusOf)
      }),
    lines: (id, afterLine, limit) =>
      run(
        async () =>
          (
            await pool.query<ImportLine>(
              'SELECT line, email, reason FROM import_errors WHERE import_id = $1 AND line > $2 ORDER BY line LIMIT $3',
              [id, afterLine, limit],
            )
          ).rows,
      ),
  }
}
