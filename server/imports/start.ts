// What the admin API and the command line check before an import starts, alike: its fields (each
// problem naming the field as its caller names it: `basis`, `--basis`), and the file's header.
import {
  IMPORT_COLUMNS,
  IMPORT_ERROR_COLUMNS,
  IMPORT_EXISTING,
  IMPORT_MODES,
  type ImportExisting,
  type ImportMode,
  type ImportStatus,
  MAX_BASIS_LENGTH,
  MAX_LABEL_LENGTH,
} from '../../contract/imports.js'
import { csvCell } from '../operators/csv.js'
import type { WaitlistStore } from '../store/types.js'
import { readCsv } from './csv.js'
import { type Header, isBlank, readHeader } from './read.js'

export interface ImportFields {
  mode: ImportMode
  existing: ImportExisting
  basis: string
  label: string | null
}

type Raw = Partial<Record<keyof ImportFields, string | undefined>>

// eslint-disable-next-line no-control-regex -- a line of words: no control characters
const CONTROL = /[\u0000-\u001f\u007f]/

/** The fields, or the first problem (`field: what is wrong`) with the field named by `name`. */
export function checkFields(
  raw: Raw,
  name: (field: keyof ImportFields) => string,
): { ok: true; fields: ImportFields } | { ok: false; problem: string } {
  const fail = (field: keyof ImportFields, message: string) => ({ ok: false as const, problem: `${name(field)}: ${message}` })
  const mode = raw.mode?.trim()
  if (!mode) return fail('mode', `required: ${IMPORT_MODES.join(' or ')}`)
  if (!(IMPORT_MODES as readonly string[]).includes(mode)) return fail('mode', `expected ${IMPORT_MODES.join(' or ')}, got "${mode}"`)
  const existing = raw.existing?.trim() || 'skip'
  if (!(IMPORT_EXISTING as readonly string[]).includes(existing))
    return fail('existing', `expected ${IMPORT_EXISTING.join(' or ')}, got "${existing}"`)
  const basis = (raw.basis ?? '').trim().replace(/\s+/g, ' ')
  if (mode === 'subscribe' && basis === '')
    return fail(
      'basis',
      'required to subscribe: a sentence saying why Kennect may hold these addresses, e.g. "Members who ticked news about Kennect on the club’s 2026 form"',
    )
  if (basis.length > MAX_BASIS_LENGTH) return fail('basis', `at most ${MAX_BASIS_LENGTH} characters`)
  const label = (raw.label ?? '').trim()
  if (label.length > MAX_LABEL_LENGTH || CONTROL.test(label)) return fail('label', `one line of at most ${MAX_LABEL_LENGTH} characters`)
  return { ok: true, fields: { mode: mode as ImportMode, existing: existing as ImportExisting, basis, label: label === '' ? null : label } }
}

/** What a file's header says: its columns, or why it cannot be imported. */
export type FileHeader = { ok: true; header: Header } | { ok: false; problem: string }

/** The file's header, read from its first lines (the first record that is not blank). */
export async function fileHeader(source: AsyncIterable<Buffer>): Promise<FileHeader> {
  for await (const item of readCsv(source)) {
    if ('broken' in item) break
    if (isBlank(item.cells)) continue
    const header = readHeader(item.cells)
    return header
      ? { ok: true, header }
      : { ok: false, problem: `the header names no email column (${IMPORT_COLUMNS.email.join(', ')}, in any letter case)` }
  }
  return { ok: false, problem: 'the file has no header line (a first line naming the columns, one of them email)' }
}

/** How many error lines the error file reads at a time (memory stays one page, whatever the import). */
const LINES_PAGE = 1_000

/**
 * The error file (the API's errors.csv, the command line's `import errors`): `line,email,reason`,
 * every cell as the export writes it, so a formula in an address is inert in a spreadsheet.
 */
export async function* errorsCsv(store: Pick<WaitlistStore, 'imports'>, id: number): AsyncGenerator<string> {
  yield `${IMPORT_ERROR_COLUMNS.join(',')}\r\n`
  for (let after = 0; ;) {
    const page = await store.imports.lines(id, after, LINES_PAGE)
    for (const line of page) yield `${[line.line, line.email, line.reason].map(csvCell).join(',')}\r\n`
    if (page.length < LINES_PAGE) return
    after = page.at(-1)?.line ?? after
  }
}

/** An import's status in one line: the command line's summary (the API's fields, in words). */
export function summaryOf(
  status: Pick<ImportStatus, 'id' | 'status' | 'rows' | 'added' | 'filled' | 'skipped' | 'failed' | 'mode'>,
): string {
  const n = (count: number) => count.toLocaleString('en')
  const rows = status.rows === null ? '' : ` ${n(status.rows)} rows,`
  return `import ${status.id} ${status.status}:${rows} ${n(status.added)} ${status.mode === 'suppress' ? 'suppressed' : 'added'}, ${n(status.filled)} filled, ${n(status.skipped)} skipped, ${n(status.failed)} failed`
}
