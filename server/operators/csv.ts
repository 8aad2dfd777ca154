// Sign-ups as CSV that is safe to open in a spreadsheet.
import type { SignUp } from '../../contract/admin-api.js'

export const CSV_COLUMNS = [
  'id',
  'email',
  'created_at',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'referrer',
  'confirmed_at',
  'unsubscribed_at',
  'role',
  'breeds',
  'country',
  'mail_state',
  'invited_by',
  'invites_confirmed',
  'locale',
  'platform',
  'claimed_at',
  'partner',
] as const

/** Several breeds in one cell, as a spreadsheet user would type them. */
const BREED_SEPARATOR = '; '

/**
 * A formula character (=, +, -, @) at the start of the value or after any character a
 * spreadsheet may split cells on (comma, semicolon in most European locales, tab, pipe, line
 * breaks), past spaces and quotes; or a tab or carriage return at the start (CSV injection).
 */
const FORMULA_AFTER_SEPARATOR = /(^|[,;\t|\r\n])([ "]*)(?=[=+\-@])/g
const CONTROL_AT_START = /^([ "]*)(?=[\t\r])/

/**
 * One cell: every formula character that could begin a cell, in any locale's way of splitting
 * the line, gets a leading apostrophe (spreadsheets show it as text); then the cell is quoted
 * (RFC 4180), so a reader that honours quotes sees one cell whatever it contains.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return ''
  const text = String(value).replace(FORMULA_AFTER_SEPARATOR, "$1$2'").replace(CONTROL_AT_START, "$1'")
  return `"${text.replace(/"/g, '""')}"`
}

export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`

export function csvLine(row: SignUp): string {
  return `${CSV_COLUMNS.map((column) => {
    const value = row[column]
    if (!Array.isArray(value)) return csvCell(value)
    return csvCell(value.length > 0 ? value.join(BREED_SEPARATOR) : null)
  }).join(',')}\r\n`
}
