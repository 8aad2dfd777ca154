// `import FILE --mode subscribe --basis "…"` (docs/import.md): the file read and written by this
// command itself, as the server's worker does it (server/imports/run.ts), one import at a time for
// the deployment; its progress on stderr (a bar on a terminal, plain lines otherwise) and one summary
// line on stdout, the API's figures. Also `import status ID`, `import errors ID` (the error file)
// and `import list`. Ctrl-C cancels it, keeping what was written.
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { Config } from '../config.js'
import type { Suppressions } from '../mail/suppression.js'
import { IMPORT_LEASE_MS, runImport } from '../imports/run.js'
import { checkFields, errorsCsv, fileHeader, summaryOf } from '../imports/start.js'
import type { WaitlistStore } from '../store/types.js'
import type { RowRules } from '../waitlist/check-row.js'
import { cliAudit, UsageError } from './cli-common.js'

export interface ImportOptions {
  mode?: string | undefined
  basis?: string | undefined
  existing?: string | undefined
  label?: string | undefined
}

export interface ImportIo {
  out: (text: string) => void
  /** Where the progress goes: stderr, a bar on a terminal and a line per tenth of the file otherwise. */
  progress: { write: (text: string) => unknown; isTTY?: boolean }
  /** Resolves when the operator asks to stop (Ctrl-C). */
  interrupted: Promise<void>
}

const importId = (value: string | undefined, command: string) => {
  const id = Number(value)
  if (!Number.isInteger(id) || id < 1) throw new UsageError(`import ${command}: which import? e.g. import ${command} 3`)
  return id
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

function bar(id: number, read: number, bytes: number, width = 30): string {
  const done = bytes === 0 ? 1 : Math.min(1, read / bytes)
  const filled = Math.round(done * width)
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(done * 100)).padStart(3)}% import ${id}`
}

export async function runImportCommand(
  store: WaitlistStore,
  config: Pick<Config, 'IMPORT_MAX_BYTES'>,
  deps: { suppressions: Pick<Suppressions, 'hash'>; rules: RowRules },
  [first, ...rest]: string[],
  options: ImportOptions,
  io: ImportIo,
): Promise<number> {
  switch (first) {
    case undefined:
      throw new UsageError('import: which file? e.g. import members.csv --mode subscribe --basis "…"')
    case 'status': {
      const status = await store.imports.status(importId(rest[0], 'status'))
      if (!status) throw new UsageError(`import status: there is no import ${rest[0]}`)
      io.out(`${summaryOf(status)}\n`)
      return 0
    }
    case 'errors': {
      const id = importId(rest[0], 'errors')
      if (!(await store.imports.status(id))) throw new UsageError(`import errors: there is no import ${id}`)
      for await (const chunk of errorsCsv(store, id)) io.out(chunk)
      return 0
    }
    case 'list': {
      const items = await store.imports.list(50)
      if (items.length === 0) io.out('no imports yet\n')
      for (const item of items) io.out(`${summaryOf(item)}  (${item.startedAt}, ${item.by}: ${item.basis || item.mode})\n`)
      return 0
    }
  }
  const path = first
  if (rest.length > 0) throw new UsageError(`import: one file at a time, got ${[path, ...rest].join(' ')}`)
  const checked = checkFields(options, (field) => `--${field}`)
  if (!checked.ok) throw new UsageError(checked.problem)
  const bytes = await stat(path).then(
    (info) => info.size,
    () => {
      throw new UsageError(`import: cannot read "${path}"`)
    },
  )
  if (bytes > config.IMPORT_MAX_BYTES)
    throw new UsageError(
      `import: "${path}" is ${bytes.toLocaleString('en')} bytes, over IMPORT_MAX_BYTES (${config.IMPORT_MAX_BYTES.toLocaleString('en')})`,
    )
  const head = await fileHeader(createReadStream(path))
  if (!head.ok) throw new UsageError(`import: ${head.problem}`)
  const { mode, existing, basis, label } = checked.fields
  const started = await store.imports.start(
    { mode, existing, basis, label, sha256: await sha256Of(path), bytes, ignoredColumns: head.header.ignored, leaseMs: IMPORT_LEASE_MS },
    (id) => cliAudit('import started', `import ${id}`),
  )
  if (started === 'busy') throw new UsageError('import: another import is running (one at a time): wait for it, or cancel it')
  const { id } = started
  if (head.header.ignored.length > 0) io.progress.write(`import ${id}: columns left out: ${head.header.ignored.join(', ')}\n`)

  // A bar redrawn in place on a terminal; a line each tenth of the file otherwise.
  const tty = Boolean(io.progress.isTTY)
  let tenth = -1
  const onBatch = (read: number) => {
    if (tty) io.progress.write(`\r${bar(id, read, bytes)}`)
    else if (Math.floor((read / Math.max(1, bytes)) * 10) > tenth) {
      tenth = Math.floor((read / Math.max(1, bytes)) * 10)
      io.progress.write(`import ${id}: ${Math.round((read / Math.max(1, bytes)) * 100)}% of the file read\n`)
    }
  }
  const stop = new AbortController()
  let cancelled = false
  void io.interrupted.then(async () => {
    cancelled = true
    // A store that cannot take the cancel now leaves the import to its lease's end; it stops anyway.
    await store.imports
      .cancel(id, cliAudit('import cancelled', `import ${id}`))
      .catch((failure: unknown) =>
        io.progress.write(`import ${id}: not marked cancelled (${failure instanceof Error ? failure.message : String(failure)})\n`),
      )
    stop.abort()
  })
  await runImport(
    {
      store,
      hash: (email) => deps.suppressions.hash(email),
      rules: deps.rules,
      log: { warn: (_details, message) => io.progress.write(`${message}\n`) },
    },
    { id, mode, source: createReadStream(path), signal: stop.signal, onBatch },
  )
  if (tty) io.progress.write('\n')
  const status = await store.imports.status(id).catch((failure: unknown) => {
    // Interrupted with the store away: the interruption's exit, not the store's error.
    if (cancelled) return null
    throw failure
  })
  if (status === null) {
    io.progress.write(`import ${id}: stopped; its status cannot be read now (the store does not answer)\n`)
    return 130
  }
  if (!status) throw new Error(`import ${id} is gone`)
  io.out(`${summaryOf(status)}\n`)
  if (cancelled) return 130
  return status.status === 'done' ? 0 : 1
}
