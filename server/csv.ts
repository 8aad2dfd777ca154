// Sign-ups as CSV that is safe to open in a spreadsheet.
import type { SignUp } from './store/store.js'

export const CSV_COLUMNS = ['id', 'email', 'created_at', 'utm_source', 'utm_medium', 'utm_campaign', 'referrer'] as const

/**
 * One cell. A value starting with =, +, -, @, tab or carriage return would be read as a formula
 * by a spreadsheet (CSV injection): it gets a leading apostrophe, which spreadsheets show as text.
 * Then RFC 4180 quoting.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`

export function csvLine(row: SignUp): string {
  return `${CSV_COLUMNS.map((column) => csvCell(row[column])).join(',')}\r\n`
}
