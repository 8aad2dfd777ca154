// Imports in SQLite (docs/decisions/026-import.md): the running import held by its lease, each batch
// written whole in one transaction (its sign-ups or suppressions, their breeds, its lines, its counts)
// with no webhook per row (db/sqlite/019's import_writing), its end and its audit lines.
import type Database from 'better-sqlite3'
import { importSource } from '../../../contract/imports.js'
import { auditWriter, now, type Run } from '../shared/sqlite.js'
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

const later = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString()
const json = (value: unknown) => JSON.stringify(value)

export function createSqliteImports(db: Database.Database, run: Run): ImportStore {
  const writeAudit = auditWriter(db)
  const stale = db.prepare(`SELECT 1 FROM imports WHERE status = 'running' AND lease_until <= ?`).pluck()
  const expire = db.prepare(
    `UPDATE imports SET status = 'failed', finished_at = @now, error = @error, lease_until = NULL
     WHERE status = 'running' AND lease_until <= @now RETURNING *`,
  )
  /** An import whose worker stopped renewing its lease failed: its prefix stays, and the log says so. */
  const expireNow = () => {
    for (const row of expire.all({ now: now(), error: LEASE_LOST }) as (ImportRow & { actor_id: number | null })[])
      writeAudit(finishedAudit(statusOf(row), row.actor_id))
  }
  const expireTx = db.transaction(expireNow)
  // Looked at first: a status read takes the write lock only when there is something to end.
  const expireStale = () => {
    if (stale.get(now())) expireTx.immediate()
  }
  const insertImport = db.prepare(
    `INSERT INTO imports (mode, existing, basis, label, sha256, bytes, ignored_columns, actor_id, actor, started_at, lease_until)
     VALUES (@mode, @existing, @basis, @label, @sha256, @bytes, @ignored, @actorId, @actor, @now, @lease) RETURNING *`,
  )
  const start = db.transaction((fields: Parameters<ImportStore['start']>[0], audit: (id: number) => AuditEntry) => {
    expireNow()
    const at = now()
    const entry = audit(0)
    let row: ImportRow
    try {
      row = insertImport.get({
        ...fields,
        ignored: json(fields.ignoredColumns),
        actorId: entry.actorId,
        actor: entry.actor,
        now: at,
        lease: later(at, fields.leaseMs),
      }) as ImportRow
    } catch (error) {
      // The one running import's index: another runs.
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return 'busy' as const
      throw error
    }
    const status = statusOf(row)
    writeAudit({ ...audit(status.id), detail: auditDetail(status) })
    return { id: status.id }
  })
  const running = db.prepare(`SELECT 1 FROM imports WHERE status = 'running' AND lease_until > ?`).pluck()
  const get = db.prepare('SELECT * FROM imports WHERE id = ?')
  const list = db.prepare('SELECT * FROM imports ORDER BY id DESC LIMIT ?')
  const lines = db.prepare('SELECT line, email, reason FROM import_errors WHERE import_id = ? AND line > ? ORDER BY line LIMIT ?')

  // ── a batch ──
  const hold = db.prepare(`UPDATE imports SET lease_until = @lease WHERE id = @id AND status = 'running'`)
  const quiet = db.prepare('INSERT INTO import_writing (import_id) VALUES (?)')
  const loud = db.prepare('DELETE FROM import_writing')
  const setting = db.prepare('SELECT mode, existing FROM imports WHERE id = ?')
  const found = db.prepare(
    `SELECT w.id, lower(w.email) AS key, w.confirmed_at IS NOT NULL AS confirmed, w.unsubscribed_at IS NOT NULL AS unsubscribed, w.role, w.country,
       (SELECT json_group_array(json_array(position, breed, name_key, side)) FROM signup_breeds WHERE signup_id = w.id) AS breeds
     FROM waitlist AS w WHERE lower(w.email) IN (SELECT value FROM json_each(?))`,
  )
  const suppressedAmong = db.prepare('SELECT email_hash FROM suppressions WHERE email_hash IN (SELECT value FROM json_each(?))').pluck()
  const mappings = db.prepare('SELECT name_key, breed FROM breed_mappings WHERE name_key IN (SELECT value FROM json_each(?))')
  // Sign-ups as the join makes them, less its mail: no confirmation queued, no inviter, no phone.
  const insertSignups = db.prepare(
    `INSERT INTO waitlist (email, utm_source, locale, country, role, import_id, created_at)
     SELECT value ->> 0, @source, value ->> 1, value ->> 2, value ->> 3, @id, @now FROM json_each(@rows) WHERE true
     ON CONFLICT DO NOTHING RETURNING id, lower(email) AS key`,
  )
  const insertBreeds = db.prepare(
    `INSERT INTO signup_breeds (signup_id, position, name, name_key, breed, side, country, counted)
     SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7 FROM json_each(?)`,
  )
  const fillSignup = db.prepare('UPDATE waitlist SET country = coalesce(country, @country), role = coalesce(role, @role) WHERE id = @id')
  const fillSide = db.prepare('UPDATE signup_breeds SET side = @side WHERE signup_id = @id AND position = @position AND side IS NULL')
  const insertLines = db.prepare(
    'INSERT INTO import_errors (import_id, line, email, reason) SELECT @id, value ->> 0, value ->> 1, value ->> 2 FROM json_each(@lines)',
  )
  const count = db.prepare(
    `UPDATE imports SET processed = processed + @processed, added = added + @added, filled = filled + @filled,
       skipped = skipped + @skipped, failed = failed + @failed, read_bytes = max(read_bytes, @readBytes) WHERE id = @id`,
  )
  // Suppress mode: the list, and each sign-up of the address stops e-mails, its queued mails dropped.
  const signupIds = db.prepare('SELECT id, lower(email) AS key FROM waitlist WHERE lower(email) IN (SELECT value FROM json_each(?))')
  const suppress = db
    .prepare(
      `INSERT INTO suppressions (email_hash, email, reason, at) SELECT value ->> 0, value ->> 1, 'imported', @now FROM json_each(@rows) WHERE true
     ON CONFLICT (email_hash) DO NOTHING RETURNING email_hash`,
    )
    .pluck()
  const unsubscribe = db.prepare(
    'UPDATE waitlist SET unsubscribed_at = @now WHERE id IN (SELECT value FROM json_each(@ids)) AND unsubscribed_at IS NULL',
  )
  const dropQueued = db.prepare(
    `UPDATE outbox SET state = 'failed', token = NULL, last_error = 'suppressed' WHERE signup_id IN (SELECT value FROM json_each(?)) AND state = 'queued'`,
  )

  function subscribe(id: number, records: readonly ImportRecord[], existing: 'skip' | 'fill', at: string) {
    const keys = records.map((record) => addressKey(record.email))
    const signups = new Map<string, Existing>()
    for (const row of found.all(json(keys)) as (Omit<Existing, 'breeds'> & { key: string; breeds: string })[]) {
      const breeds = (JSON.parse(row.breeds) as [number, string | null, string | null, string | null][]).map(
        ([position, breed, key, side]) => ({
          position,
          breed,
          key,
          side,
        }),
      )
      signups.set(row.key, { ...row, confirmed: Boolean(row.confirmed), unsubscribed: Boolean(row.unsubscribed), breeds })
    }
    const suppressed = new Set(suppressedAmong.all(json(records.map((record) => record.emailHash))) as string[])
    const decision = decide(records, signups, suppressed, existing)
    const unknown = unreadKeys([...decision.inserts, ...decision.fills])
    const mapped = new Map(
      unknown.length === 0 ? [] : (mappings.all(json(unknown)) as { name_key: string; breed: string }[]).map((m) => [m.name_key, m.breed]),
    )
    const made = new Map<string, number>()
    if (decision.inserts.length > 0)
      for (const row of insertSignups.all({
        source: importSource(id),
        id,
        now: at,
        rows: json(decision.inserts.map((r) => [r.email, r.locale, r.country, r.role])),
      }) as { id: number; key: string }[])
        made.set(row.key, row.id)
    const breeds: ReturnType<typeof breedRows> = []
    const lines = [...decision.lines]
    for (const record of decision.inserts) {
      const signupId = made.get(addressKey(record.email))
      // Signed up between the look and the insert (SQLite writes one at a time, so never here).
      if (signupId === undefined) lines.push({ line: record.line, email: record.email, reason: 'exists' })
      else breeds.push(...breedRows(signupId, record.breeds, record.side, record.country, false, mapped))
    }
    for (const fill of decision.fills) {
      if (fill.country !== null || fill.role !== null) fillSignup.run(fill)
      breeds.push(...breedRows(fill.id, fill.breeds, fill.side, fill.rowCountry, fill.counted, mapped))
      for (const side of fill.sides) fillSide.run({ id: fill.id, ...side })
    }
    if (breeds.length > 0)
      insertBreeds.run(json(breeds.map((b) => [b.signupId, b.position, b.name, b.key, b.breed, b.side, b.country, b.counted ? 1 : 0])))
    return { added: made.size, filled: decision.fills.length, lines }
  }

  function suppressAll(records: readonly ImportRecord[], at: string) {
    const ids = new Map(
      (signupIds.all(json(records.map((r) => addressKey(r.email)))) as { id: number; key: string }[]).map((r) => [r.key, r.id]),
    )
    const rows = records.map((r) => [r.emailHash, ids.has(addressKey(r.email)) ? addressKey(r.email) : null])
    const added = new Set(records.length === 0 ? [] : (suppress.all({ rows: json(rows), now: at }) as string[]))
    if (ids.size > 0) {
      unsubscribe.run({ ids: json([...ids.values()]), now: at })
      dropQueued.run(json([...ids.values()]))
    }
    const lines: ImportLine[] = records
      .filter((r) => !added.has(r.emailHash))
      .map((r) => ({ line: r.line, email: r.email, reason: 'suppressed' }))
    return { added: added.size, filled: 0, lines }
  }

  const write = db.transaction((id: number, batch: ImportBatch, leaseMs: number): boolean => {
    const at = now()
    if (hold.run({ id, lease: later(at, leaseMs) }).changes === 0) return false
    const { mode, existing } = setting.get(id) as { mode: 'subscribe' | 'suppress'; existing: 'skip' | 'fill' }
    quiet.run(id)
    const done = mode === 'subscribe' ? subscribe(id, batch.records, existing, at) : suppressAll(batch.records, at)
    loud.run()
    const lines = [...batch.lines, ...done.lines].sort((a, b) => a.line - b.line)
    if (lines.length > 0) insertLines.run({ id, lines: json(lines.map((l) => [l.line, l.email, l.reason])) })
    count.run({ id, readBytes: batch.readBytes, ...countsOf(done.added, done.filled, lines) })
    return true
  })
  const finish = db.transaction((id: number, end: Parameters<ImportStore['finish']>[1]) => {
    const row = db
      .prepare(
        `UPDATE imports SET status = @status, records = @rows, error = @error, finished_at = @now, lease_until = NULL
         WHERE id = @id AND status = 'running' RETURNING *`,
      )
      .get({ id, ...end, now: now() }) as (ImportRow & { actor_id: number | null }) | undefined
    if (row) writeAudit(finishedAudit(statusOf(row), row.actor_id))
    return row !== undefined
  })
  const cancel = db.transaction((id: number, audit: AuditEntry) => {
    expireNow()
    const row = db
      .prepare(
        `UPDATE imports SET status = 'cancelled', finished_at = @now, lease_until = NULL WHERE id = @id AND status = 'running' RETURNING *`,
      )
      .get({ id, now: now() }) as ImportRow | undefined
    if (!row) return get.get(id) === undefined ? undefined : ('ended' as const)
    const status = statusOf(row)
    writeAudit({ ...audit, detail: auditDetail(status) })
    return status
  })

  return {
    // A batch holds the one writer, and the event loop with it, about 2 ms; as long again for sign-ups.
    pace: { records: 100, rest: 1 },
    start: (fields, audit) => run(() => start.immediate(fields, audit)),
    running: () => run(() => running.get(now()) !== undefined),
    write: (id, batch, leaseMs) => run(() => write.immediate(id, batch, leaseMs)),
    renew: (id, leaseMs) => run(() => hold.run({ id, lease: later(now(), leaseMs) }).changes > 0),
    finish: (id, end) => run(() => finish.immediate(id, end)),
    cancel: (id, audit) => run(() => cancel.immediate(id, audit)),
    status: (id) =>
      run(() => {
        expireStale()
        const row = get.get(id) as ImportRow | undefined
        return row && statusOf(row)
      }),
    list: (limit) =>
      run(() => {
        expireStale()
        return (list.all(limit) as ImportRow[]).map(statusOf)
      }),
    lines: (id, afterLine, limit) => run(() => lines.all(id, afterLine, limit) as ImportLine[]),
  }
}
