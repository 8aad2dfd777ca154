// Turns a PostgREST insert request into the one row to store, or the error PostgREST (with the
// Supabase migration) would answer, checking in PROTOCOL.md's order: the first failure wins.
import { errors } from './postgrest.js'

export const ATTRIBUTION_COLUMNS = ['utm_source', 'utm_medium', 'utm_campaign', 'referrer'] as const
export type AttributionColumn = (typeof ATTRIBUTION_COLUMNS)[number]
const INSERTABLE = ['email', ...ATTRIBUTION_COLUMNS] as const
const SERVER_SET = ['id', 'created_at'] as const
const COLUMNS: ReadonlySet<string> = new Set([...INSERTABLE, ...SERVER_SET])

export const MAX_EMAIL_LENGTH = 254
export const MAX_LOCAL_PART_LENGTH = 64
export const MAX_ATTRIBUTION_LENGTH = 200
/**
 * Our extension: a sign-up is one flat object. A value nested deeper than this is refused like
 * invalid JSON, before anything walks it recursively (turning a 5,000-deep array into text
 * overflows the stack).
 */
export const MAX_JSON_DEPTH = 32

/** The WHATWG rule behind `<input type=email>` (PROTOCOL.md, "Valid address"). */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

export type WaitlistRow = { email: string } & Record<AttributionColumn, string | null>

export interface InsertRequest {
  /** The raw body; undefined when the request had none. */
  body: string | undefined
  /** `?columns=` as sent (supabase-js: `"email"`), if any. */
  columns: string | undefined
  onConflict: boolean
  prefer: ReadonlyMap<string, string>
  /** BLOCK_DISPOSABLE_EMAIL: a domain this answers true for is refused as an invalid address. */
  blockedDomain?: ((domain: string) => boolean) | undefined
}

export function isValidEmail(email: string): boolean {
  if (!EMAIL_PATTERN.test(email)) return false
  const at = email.lastIndexOf('@')
  return email.length <= MAX_EMAIL_LENGTH && at <= MAX_LOCAL_PART_LENGTH
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

/** The row to insert, or null for an empty array (PostgREST inserts nothing and answers 201). */
export function prepareInsert(request: InsertRequest): WaitlistRow | null {
  const rows = parseRows(request.body) // 8, 9
  if (rows.length > 1) throw errors.tooManyRows() // 10
  const selected = selectColumns(request.columns, rows[0]) // 11
  if (request.onConflict) throw errors.onConflict() // 12
  const returning = request.prefer.get('return')
  if (
    (selected && SERVER_SET.some((column) => column in selected)) ||
    returning === 'representation' ||
    returning === 'headers-only' ||
    request.prefer.has('resolution')
  ) {
    throw errors.permissionDenied() // 13
  }
  if (!selected) return null
  return toRow(selected, request.blockedDomain) // 14..18
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

/** Checks 14–18 of PROTOCOL.md on one object's columns; also used by the no-script form. */
export function toRow(input: Record<string, unknown>, blockedDomain?: (domain: string) => boolean): WaitlistRow {
  const email = input.email
  if (email === undefined || email === null) throw errors.notNull('email') // 14
  const values = [email, ...ATTRIBUTION_COLUMNS.map((column) => input[column])]
  if (values.some((value) => asText(value)?.includes('\u0000'))) throw errors.nulCharacter() // 15
  const text = asText(email) ?? ''
  if (!EMAIL_PATTERN.test(text)) throw errors.emailFormat() // 16
  if (!isValidEmail(text)) throw errors.emailLength() // 17
  // Our extension: a disposable address is answered as the format check answers a bad one.
  if (blockedDomain?.(text.slice(text.lastIndexOf('@') + 1))) throw errors.emailFormat()
  const row: WaitlistRow = { email: text, utm_source: null, utm_medium: null, utm_campaign: null, referrer: null }
  for (const column of ATTRIBUTION_COLUMNS) {
    const value = asText(input[column])
    if (value !== null && value.length > MAX_ATTRIBUTION_LENGTH) throw errors.attributionLength() // 18
    row[column] = value
  }
  return row
}

/** PostgreSQL stores a JSON number, boolean or object sent for a text column as its text. */
function asText(value: unknown): string | null {
  if (value === undefined || value === null) return null
  return typeof value === 'string' ? value : JSON.stringify(value)
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
