// An import's worker (docs/decisions/026-import.md): the file read as a stream, record by record,
// each read as the join reads a sign-up, written a batch at a time (each batch one transaction with
// its lines and counts: a crash leaves a committed prefix and a status the team can read), paced so
// that the page's sign-ups and event loop keep their speed, its lease renewed while it works.
import type { ImportMode } from '../../contract/imports.js'
import { type ImportBatch, StoreUnavailableError, type WaitlistStore } from '../store/types.js'
import type { RowRules } from '../waitlist/check-row.js'
import { readCsv } from './csv.js'
import { type Header, isBlank, readHeader, readRecord, warmReaders } from './read.js'

/** How long a worker holds its import without renewing it; it renews it with each batch and this often between. */
export const IMPORT_LEASE_MS = 30_000
export const IMPORT_RENEW_MS = 5_000
/** How long a batch is tried again while the store cannot answer (a restart, a fail-over), before the import fails. */
const RETRY_MS = [250, 500, 1_000, 2_000, 4_000, 8_000]

export interface ImportWorker {
  store: Pick<WaitlistStore, 'imports'>
  /** The suppression list's keyed hash of an address. */
  hash: (email: string) => Promise<string>
  rules: RowRules
  log: { warn: (details: object, message: string) => void }
}

export interface ImportRun {
  id: number
  mode: ImportMode
  /** The file's bytes, from its start. */
  source: AsyncIterable<Buffer>
  /** Aborted when the process stops: the import ends as failed, what was written kept. */
  signal?: AbortSignal
  /** After each batch committed: how far into the file it has read. */
  onBatch?: (readBytes: number) => void
  /** The store's pace (ImportStore.pace) unless said: records per batch, and the rest after one as a share of its time. */
  batchRecords?: number
  restShare?: number
}

/** How an import's run ended: read through (done), stopped by a cancel or a lost lease, or failed. */
export type RunEnd = 'done' | 'stopped' | 'failed'

// Not unref'd: a command's import has nothing else keeping its process alive between batches.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export async function runImport(worker: ImportWorker, run: ImportRun): Promise<RunEnd> {
  const { store, log } = worker
  const batchRecords = run.batchRecords ?? store.imports.pace.records
  const rest = run.restShare ?? store.imports.pace.rest
  let lost = false
  const renew = setInterval(() => {
    store.imports.renew(run.id, IMPORT_LEASE_MS).then(
      (held) => void (lost ||= !held),
      (error: unknown) => log.warn({ err: error, import: run.id }, 'import: the lease was not renewed; next time again'),
    )
  }, IMPORT_RENEW_MS)
  renew.unref()
  // The addresses met so far, as the unique index compares them: a later line of one is a repeat.
  const seen = new Set<string>()
  let batch: ImportBatch = { records: [], lines: [], readBytes: 0 }
  let rows = 0
  let header: Header | undefined

  /** The batch committed (tried again while the store is away); false when the import no longer runs. */
  async function flush(): Promise<boolean> {
    if (batch.records.length === 0 && batch.lines.length === 0) return true
    const began = performance.now()
    for (let attempt = 0; ; attempt++) {
      try {
        if (!(await store.imports.write(run.id, batch, IMPORT_LEASE_MS))) return false
        break
      } catch (error) {
        const wait = RETRY_MS[attempt]
        if (!(error instanceof StoreUnavailableError) || wait === undefined) throw error
        // Stopped (a command's Ctrl-C) while the store is away: no more tries, the lease ends it.
        if (run.signal?.aborted) return false
        log.warn({ err: error, import: run.id }, 'import: the store cannot take a batch now; trying it again')
        await sleep(wait)
      }
    }
    run.onBatch?.(batch.readBytes)
    batch = { records: [], lines: [], readBytes: batch.readBytes }
    await sleep(Math.min(1_000, (performance.now() - began) * rest))
    return true
  }

  try {
    await warmReaders(() => new Promise((resolve) => setImmediate(resolve)))
    for await (const item of readCsv(run.source)) {
      if (lost || run.signal?.aborted) break
      batch.readBytes = item.endByte
      if ('broken' in item) {
        // The rest cannot be read as CSV: one line says where it broke, and the import ends there.
        rows++
        batch.lines.push({ line: item.line, email: '', reason: 'malformed' })
        break
      }
      if (isBlank(item.cells)) continue
      if (header === undefined) {
        header = readHeader(item.cells) ?? undefined
        if (header === undefined) break
        continue
      }
      rows++
      const read = readRecord(item.cells, header, run.mode, worker.rules)
      if (!read.ok) batch.lines.push({ line: item.line, email: read.email, reason: read.reason })
      else {
        const key = read.record.email.toLowerCase()
        if (seen.has(key)) batch.lines.push({ line: item.line, email: read.record.email, reason: 'repeat' })
        else {
          seen.add(key)
          batch.records.push({ ...read.record, line: item.line, emailHash: await worker.hash(read.record.email) })
        }
      }
      if (batch.records.length + batch.lines.length >= batchRecords && !(await flush())) return 'stopped'
    }
    if (lost || !(await flush())) return 'stopped'
    if (run.signal?.aborted) {
      await store.imports.finish(run.id, {
        status: 'failed',
        rows: null,
        error: 'stopped: the server or command was stopped before it finished',
      })
      return 'failed'
    }
    if (header === undefined) {
      await store.imports.finish(run.id, { status: 'failed', rows: 0, error: 'the file has no header naming an email column' })
      return 'failed'
    }
    return (await store.imports.finish(run.id, { status: 'done', rows, error: null })) ? 'done' : 'stopped'
  } catch (error) {
    log.warn({ err: error, import: run.id }, 'import: failed; what was committed stays')
    const reason = error instanceof StoreUnavailableError ? 'the store could not be reached' : 'the file could not be read'
    await store.imports
      .finish(run.id, { status: 'failed', rows: null, error: reason })
      .catch((lostToo: unknown) => log.warn({ err: lostToo, import: run.id }, 'import: not marked failed; its lease will run out'))
    return 'failed'
  } finally {
    clearInterval(renew)
  }
}
