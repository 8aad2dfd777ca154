// Imports (docs/import.md, docs/decisions/026-import.md): a CSV of addresses the team already holds,
// read as the join reads a sign-up, brought in as sign-ups that were sent nothing (`subscribe`), or
// added to the suppression list (`suppress`). What the admin API takes and answers, the columns a
// file may have, and why a line was not added. Types, constants and pure checks; this folder
// imports nothing but itself.
import type { Locale } from './locales.js'

/** `subscribe`: sign-ups, unconfirmed and sent nothing; `suppress`: the suppression list (a Mailchimp "unsubscribed" or "cleaned" export). */
export const IMPORT_MODES = ['subscribe', 'suppress'] as const
export type ImportMode = (typeof IMPORT_MODES)[number]

/** An address signed up already: left as it is (`skip`), or given only the fields it never said (`fill`). */
export const IMPORT_EXISTING = ['skip', 'fill'] as const
export type ImportExisting = (typeof IMPORT_EXISTING)[number]

export const IMPORT_STATUSES = ['running', 'done', 'failed', 'cancelled'] as const
export type ImportStatusName = (typeof IMPORT_STATUSES)[number]

/** Why a line failed: it cannot be an address of ours, or it says something the profile cannot hold. */
export const IMPORT_FAILURES = [
  'invalid_email',
  /** BLOCK_DISPOSABLE_EMAIL: a throwaway domain, refused as the join refuses it. */
  'disposable_email',
  'unknown_country',
  'unknown_role',
  'unknown_side',
  'too_many_breeds',
  'breed_too_long',
  /** The line is not CSV (a quote never closed, a record longer than IMPORT_MAX_RECORD_BYTES). */
  'malformed',
] as const
/** Why a valid line was not added: an address earlier in the file, signed up already, or one that must not be mailed. */
export const IMPORT_SKIPS = ['repeat', 'exists', 'suppressed'] as const
export type ImportFailure = (typeof IMPORT_FAILURES)[number]
export type ImportSkip = (typeof IMPORT_SKIPS)[number]
export type ImportReason = ImportFailure | ImportSkip
export const isImportSkip = (reason: ImportReason): reason is ImportSkip => (IMPORT_SKIPS as readonly string[]).includes(reason)

/** The basis: why Kennect may hold these addresses, in the operator's words (required to subscribe). */
export const MAX_BASIS_LENGTH = 500
export const MAX_LABEL_LENGTH = 100
/** IMPORT_MAX_BYTES's default: 50 MiB of the file's own bytes. */
export const DEFAULT_IMPORT_MAX_BYTES = 52_428_800
/** The longest record a line may be (a quote left open would otherwise swallow the file). */
export const IMPORT_MAX_RECORD_BYTES = 65_536

/**
 * The columns a file may have, each under the header names it is found by (any letter case, spaces
 * at either end ignored): Mailchimp's export calls the address `Email Address`. `email` is required.
 */
export const IMPORT_COLUMNS = {
  email: ['email', 'e-mail', 'email address', 'e-mail address'],
  locale: ['language', 'locale'],
  country: ['country'],
  role: ['role'],
  breeds: ['breeds'],
  side: ['side'],
} as const satisfies Record<string, readonly string[]>
export type ImportColumn = keyof typeof IMPORT_COLUMNS

/** Several breeds in one cell: `Whippet; Saluki` or `Whippet | Saluki`. */
export const BREED_SEPARATOR = /[;|]/

/** A sign-up's source once imported: `import:7`. */
export const importSource = (id: number) => `import:${id}`

/** The counts of an import, as its status and its `import.completed` event say them. */
export interface ImportCounts {
  /** The data records in the file (the header not counted); null until it has been read through. */
  rows: number | null
  /** Records dealt with so far: only ever rising. */
  processed: number
  /** subscribe: sign-ups made; suppress: addresses newly suppressed. */
  added: number
  /** Sign-ups signed up already that got fields they never gave (existing=fill). */
  filled: number
  /** Valid lines not added: a repeat, an address signed up already, or suppressed. */
  skipped: number
  /** Lines that could not be read as an address of ours. */
  failed: number
}

/** GET /admin/api/imports/:id */
export interface ImportStatus extends ImportCounts {
  id: number
  status: ImportStatusName
  mode: ImportMode
  existing: ImportExisting
  basis: string
  label: string | null
  /** Header names the import does not read, as the file spells them. */
  ignoredColumns: string[]
  /** The file's SHA-256 (hex) and size in bytes. */
  sha256: string
  bytes: number
  /** How many of its bytes the committed batches have read: the progress (rows are not known before the end). */
  readBytes: number
  /** Who started it: an operator's address, a token's name, ADMIN_TOKEN or the command line. */
  by: string
  /** ISO 8601, UTC. */
  startedAt: string
  finishedAt: string | null
  /** Why it failed (the store lost, the server stopped, its worker gone), if it did. */
  error: string | null
}

/** POST /admin/api/imports answers 202 with it. */
export interface ImportStarted {
  id: number
}

/** How many records the preview shows, read from at most this many of the file's first bytes. */
export const IMPORT_PREVIEW_ROWS = 10
export const IMPORT_PREVIEW_BYTES = 65_536

/** One record as the import will read it. */
export interface ImportPreviewRow {
  line: number
  email: string
  locale: Locale
  country: string | null
  role: string | null
  /** Each name with the catalogue's breed, null where it knows none (the unmatched list, as a visitor's would be). */
  breeds: { name: string; breed: string | null }[]
  side: string | null
  /** Why it would fail (before the store is asked: repeats, sign-ups and suppressions are known at the import). */
  error: ImportFailure | 'repeat' | null
}

/** POST /admin/api/imports/preview: the file's first bytes read as the import will read them. */
export interface ImportPreview {
  delimiter: ',' | ';'
  /** Which header name each column was found under. */
  columns: Partial<Record<ImportColumn, string>>
  ignoredColumns: string[]
  rows: ImportPreviewRow[]
}

/** The error file's columns (GET /admin/api/imports/:id/errors.csv). */
export const IMPORT_ERROR_COLUMNS = ['line', 'email', 'reason'] as const
