// What both stores' imports share (docs/decisions/026-import.md): what a batch does to the sign-ups
// it finds (decided here once, from what each dialect read in the batch's transaction), the counts
// it adds, the status as the API answers it, and the audit lines' details.
import { type ImportExisting, type ImportStatus, isImportSkip } from '../../../contract/imports.js'
import { importSource } from '../../../contract/imports.js'
import type { AuditEntry, ImportLine, ImportRecord } from '../types.js'

/** A sign-up the batch names, as the store read it inside the batch's transaction. */
export interface Existing {
  id: number
  confirmed: boolean
  unsubscribed: boolean
  role: string | null
  country: string | null
  /** Its breeds' rows: their place, breed (id, or null while unknown), key and side. */
  breeds: { position: number; breed: string | null; key: string | null; side: string | null }[]
}

/** What `existing=fill` gives one sign-up: only what it never said. */
export interface Fill {
  id: number
  line: number
  country: string | null
  role: string | null
  /** Breeds for a profile that named none, at places 1, 2, … */
  breeds: ImportRecord['breeds']
  side: string | null
  /** Sides for its own rows of the file's breeds that said none. */
  sides: { position: number; side: string }[]
  /** Whether its breeds' rows count (confirmed, subscribed): the counting triggers read it on the rows. */
  counted: boolean
  /** The country its new breed rows carry: its own, or the one filled now. */
  rowCountry: string | null
}

export interface Decision {
  /** New sign-ups. */
  inserts: ImportRecord[]
  fills: Fill[]
  /** The batch's lines: those found while reading, and the records skipped here. */
  lines: ImportLine[]
}

/** The key the unique index compares addresses by (ASCII letters folded: addresses are ASCII, contract/waitlist.ts). */
export const addressKey = (email: string) => email.toLowerCase()

/**
 * What a subscribe batch does: a suppressed address, or one whose sign-up stopped e-mails, is never
 * added back; a sign-up is left as it is, or with `fill` given only the fields it never said (never
 * its language, its confirmation or its e-mails); every other address is a new sign-up.
 */
export function decide(
  records: readonly ImportRecord[],
  found: ReadonlyMap<string, Existing>,
  suppressed: ReadonlySet<string>,
  existing: ImportExisting,
): Decision {
  const inserts: ImportRecord[] = []
  const fills: Fill[] = []
  const lines: ImportLine[] = []
  for (const record of records) {
    const signup = found.get(addressKey(record.email))
    const skip = (reason: ImportLine['reason']) => lines.push({ line: record.line, email: record.email, reason })
    if (suppressed.has(record.emailHash) || signup?.unsubscribed) skip('suppressed')
    else if (!signup) inserts.push(record)
    else if (existing === 'skip') skip('exists')
    else {
      const fill = fillOf(signup, record)
      if (fill) fills.push(fill)
      else skip('exists')
    }
  }
  return { inserts, fills, lines }
}

function fillOf(signup: Existing, record: ImportRecord): Fill | null {
  const country = signup.country === null ? record.country : null
  const role = signup.role === null ? record.role : null
  const breeds = signup.breeds.length === 0 ? record.breeds : []
  const sides: Fill['sides'] = []
  if (record.side !== null && signup.breeds.length > 0) {
    const named = new Set(record.breeds.flatMap((breed) => [breed.breed === null ? `key:${breed.key}` : `id:${breed.breed}`]))
    for (const row of signup.breeds)
      if (row.side === null && (named.has(`id:${row.breed}`) || named.has(`key:${row.key}`)))
        sides.push({ position: row.position, side: record.side })
  }
  if (country === null && role === null && breeds.length === 0 && sides.length === 0) return null
  return {
    id: signup.id,
    line: record.line,
    country,
    role,
    breeds,
    side: record.side,
    sides,
    counted: signup.confirmed && !signup.unsubscribed,
    rowCountry: signup.country ?? country,
  }
}

/** A profile's breed rows as both dialects insert them: each name's breed the catalogue's, else an operator's mapping. */
export function breedRows(
  signupId: number,
  breeds: ImportRecord['breeds'],
  side: string | null,
  country: string | null,
  counted: boolean,
  mapped: ReadonlyMap<string, string>,
) {
  return breeds.map((b, i) => ({
    signupId,
    position: i + 1,
    name: b.name,
    key: b.key,
    breed: b.breed ?? mapped.get(b.key) ?? null,
    side,
    country: country ?? '',
    counted,
  }))
}

/** The names of a batch the catalogue did not read: those an operator may have mapped. */
export const unreadKeys = (records: readonly Pick<ImportRecord, 'breeds'>[]) => [
  ...new Set(records.flatMap((r) => r.breeds.filter((b) => b.breed === null).map((b) => b.key))),
]

/** The counts a batch adds: its new rows, the sign-ups filled, and its lines by reason. */
export function countsOf(added: number, filled: number, lines: readonly ImportLine[]) {
  const skipped = lines.filter((line) => isImportSkip(line.reason)).length
  return { processed: added + filled + lines.length, added, filled, skipped, failed: lines.length - skipped }
}

/** An imports row as both dialects read it (moments as ISO text, the ignored columns as JSON text or an array). */
export interface ImportRow {
  id: number | string
  status: ImportStatus['status']
  mode: ImportStatus['mode']
  existing: ImportStatus['existing']
  basis: string
  label: string | null
  sha256: string
  bytes: number | string
  read_bytes: number | string
  ignored_columns: string | string[]
  actor: string
  actor_id: number | string | null
  records: number | null
  processed: number
  added: number
  filled: number
  skipped: number
  failed: number
  started_at: string
  finished_at: string | null
  error: string | null
}

export const statusOf = (row: ImportRow): ImportStatus => ({
  id: Number(row.id),
  status: row.status,
  mode: row.mode,
  existing: row.existing,
  basis: row.basis,
  label: row.label,
  ignoredColumns: typeof row.ignored_columns === 'string' ? (JSON.parse(row.ignored_columns) as string[]) : row.ignored_columns,
  sha256: row.sha256,
  bytes: Number(row.bytes),
  readBytes: Number(row.read_bytes),
  by: row.actor,
  rows: row.records,
  processed: row.processed,
  added: row.added,
  filled: row.filled,
  skipped: row.skipped,
  failed: row.failed,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  error: row.error,
})

/** Who, the file and what it was asked to do, and (once it ends) how it ended and its counts: every line of an import's audit says it whole. */
export function auditDetail(status: ImportStatus): Record<string, unknown> {
  const { sha256, bytes, mode, existing, basis, label } = status
  const file = { sha256, bytes, mode, existing, basis, label, source: importSource(status.id) }
  if (status.status === 'running') return file
  const { rows, processed, added, filled, skipped, failed, error } = status
  return { ...file, status: status.status, rows, processed, added, filled, skipped, failed, ...(error ? { error } : {}) }
}

/** The line that ends an import: in its starter's name (the worker, the lease, the store end it for them). */
export const finishedAudit = (status: ImportStatus, actorId: number | null): AuditEntry => ({
  actorId,
  actor: status.by,
  action: 'import finished',
  target: `import ${status.id}`,
  detail: auditDetail(status),
  requestId: null,
})

/** Why an import whose worker stopped renewing its lease failed. */
export const LEASE_LOST = 'interrupted: its worker stopped (the server or command ended) before it finished'
