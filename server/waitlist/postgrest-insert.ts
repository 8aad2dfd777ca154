// A PostgREST insert request read as PostgREST (with the Supabase migration) reads it: the body,
// `?columns=`, `?on_conflict=` and `Prefer`, checked in docs/protocol.md's order (rows 8 to 13),
// then the row's own rules (checkRow, rows 14 to 18). The first failure is the answer.
import { INSERTABLE_COLUMNS, SERVER_SET_COLUMNS, type WaitlistRow } from '../../contract/waitlist.js'
import { checkRow, type RowRules } from './check-row.js'
import { postgrestErrors as errors } from './postgrest-errors.js'

const COLUMNS: ReadonlySet<string> = new Set([...INSERTABLE_COLUMNS, ...SERVER_SET_COLUMNS])

/**
 * Our extension: a sign-up is one flat object. A value nested deeper than this is refused like
 * invalid JSON, before anything walks it recursively (turning a 5,000-deep array into text
 * overflows the stack).
 */
export const MAX_JSON_DEPTH = 32

export interface InsertRequest extends RowRules {
  /** The raw body; undefined when the request had none. */
  body: string | undefined
  /** `?columns=` as sent (supabase-js: `"email"`), if any. */
  columns: string | undefined
  onConflict: boolean
  prefer: ReadonlyMap<string, string>
}

/** Parses `Prefer: return=minimal, count=exact` into { return: minimal, count: exact }. */
export function parsePrefer(header: string | string[] | undefined): Map<string, string> {
  const prefer = new Map<string, string>()
  const values = Array.isArray(header) ? header : header ? [header] : []
  for (const part of values.flatMap((v) => v.split(','))) {
    const [key, value = ''] = part.split('=').map((s) => s.trim())
    if (key) prefer.set(key.toLowerCase(), value)
  }
  return prefer
}

/**
 * The row to insert, or null for an empty array (PostgREST inserts nothing and answers 201).
 * Throws the PostgrestError of the first check that fails.
 */
export function prepareInsert(request: InsertRequest): WaitlistRow | null {
  const rows = parseRows(request.body) // rows 8, 8a, 9 of the answer table: JSON of one shape
  if (rows.length > 1) throw errors.tooManyRows() // row 10: one sign-up per request
  const selected = selectColumns(request.columns, rows[0]) // row 11: known columns only
  if (request.onConflict) throw errors.onConflict() // row 12: no upsert
  const returning = request.prefer.get('return')
  if (
    (selected && SERVER_SET_COLUMNS.some((column) => column in selected)) ||
    returning === 'representation' ||
    returning === 'headers-only' ||
    request.prefer.has('resolution')
  ) {
    throw errors.permissionDenied() // row 13: what insert-only rights refuse
  }
  if (!selected) return null
  const checked = checkRow(selected, request) // rows 14 to 18: the sign-up's own rules
  if (!checked.ok) throw errors.rowRefused(checked.failure)
  return checked.row
}

function parseRows(body: string | undefined): Record<string, unknown>[] {
  let json: unknown
  try {
    json = JSON.parse(body ?? '')
  } catch {
    throw errors.invalidJson()
  }
  if (nestedDeeperThan(json, MAX_JSON_DEPTH)) throw errors.jsonTooDeep(MAX_JSON_DEPTH)
  const rows = Array.isArray(json) ? json : [json]
  if (!rows.every(isPlainObject)) throw Array.isArray(json) ? errors.keysMustMatch() : errors.invalidJson()
  const keys = rows[0] ? keySignature(rows[0]) : ''
  if (rows.some((row) => keySignature(row) !== keys)) throw errors.keysMustMatch()
  return rows
}

function selectColumns(columnsParam: string | undefined, row: Record<string, unknown> | undefined) {
  if (columnsParam === undefined) {
    if (!row) return undefined
    for (const key of Object.keys(row)) if (!COLUMNS.has(key)) throw errors.unknownColumn(key)
    return row
  }
  // `?columns=` names the columns to take from each object; other keys in the body are ignored.
  const names = columnsParam.split(',').map((name) => name.trim().replace(/^"(.*)"$/, '$1'))
  for (const name of names) if (!COLUMNS.has(name)) throw errors.unknownColumn(name)
  if (!row) return undefined
  return Object.fromEntries(names.map((name) => [name, row[name] ?? null]))
}

/** Walks the value with a stack of its own, so any depth JSON.parse accepts is measured safely. */
function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }]
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue
    if (next.depth > maxDepth) return true
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 })
  }
  return false
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function keySignature(row: Record<string, unknown>): string {
  return Object.keys(row).sort().join('\u0001')
}
