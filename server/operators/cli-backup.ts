// `npm run waitlist -- backup FILE`: a copy of the SQLite database, taken while the server runs and
// writes, then checked: the copy's integrity and what it holds. PostgreSQL is backed up with its
// own tools (pg_dump, or the provider's snapshots): README, Operating.
//
// The copy is SQLite's `VACUUM INTO`, which reads one snapshot of the database: the server's writes
// go on beside it and never restart it. (The online backup API, used before, starts again whenever
// another connection writes: under 15 sign-ups a second it never finished a 180 MB database, issue
// 39.) It is written under a temporary name beside FILE, checked there, and only then given FILE's
// name, so FILE is either a whole, checked copy or absent.
import Database from 'better-sqlite3'
import { existsSync, linkSync, lstatSync, mkdirSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join, resolve } from 'node:path'
import { Worker } from 'node:worker_threads'
import { counted } from '../../contract/counted.js'
import type { Config } from '../config.js'
import { UsageError } from './cli-common.js'

/** How often a terminal is told how far the copy is. */
const PROGRESS_EVERY_MS = 250

/**
 * The names SQLite gives a database's own files beside it (`<database>-journal`, `-wal`, `-shm`).
 * A copy under one of them is taken for that file when the database beside it is opened: the next
 * `count` answered "database is locked" and the next server start deleted the copy as a hot
 * journal (issue 49).
 */
const SQLITE_FILES_BESIDE = { '-journal': 'rollback journal', '-wal': 'write-ahead log', '-shm': 'shared-memory index' } as const

/**
 * What a copy holds, as `backup` prints it after checking it. The copy is left in rollback-journal
 * mode (what `VACUUM INTO` writes): a single file, with no `-wal` or `-shm` made beside it.
 */
export function describeCopy(file: string): string {
  const copy = new Database(file, { fileMustExist: true })
  try {
    const mode = copy.pragma('journal_mode = DELETE', { simple: true })
    if (mode !== 'delete') throw new Error(`the copy ${file} stays in journal mode ${String(mode)}`)
    const integrity = copy.pragma('integrity_check', { simple: true })
    if (integrity !== 'ok') throw new Error(`the copy ${file} failed its integrity check: ${String(integrity)}`)
    const count = (table: string) => Number(copy.prepare(`SELECT count(*) FROM ${table}`).pluck().get())
    return `${counted(count('waitlist'), 'sign-up', 'sign-ups')}, ${counted(count('outbox'), 'mail', 'mails')}, ${counted(count('operators'), 'operator', 'operators')}; integrity ok`
  } finally {
    copy.close()
  }
}

/** Writes how far the copy is, on one line it rewrites; only to a terminal. */
function terminalProgress(): ((line: string) => void) | undefined {
  if (!process.stderr.isTTY) return undefined
  return (line) => process.stderr.write(`\r\x1b[K${line}`)
}

export async function runBackup(
  config: Config,
  args: string[],
  out: (text: string) => void,
  progress: ((line: string) => void) | undefined = terminalProgress(),
): Promise<number> {
  const [given] = args
  if (!given) throw new UsageError('backup: where to? e.g. npm run -s waitlist -- backup backups/waitlist-2026-11-25.db')
  if (config.DATABASE_URL) {
    throw new UsageError(
      'backup copies the SQLite database; with DATABASE_URL, use pg_dump (pg_dump --format=custom "$DATABASE_URL" > kennect.dump) or your provider\'s backups',
    )
  }
  // The name is taken exactly as given: a space at either end is most likely a slip of the
  // shell's quoting, and trimming it silently once made `backup "existing.db "` overwrite a copy.
  if (/^\s|\s$/.test(given)) throw new UsageError(`backup: ${JSON.stringify(given)} begins or ends with a space; name the file without it`)
  if (!existsSync(config.SQLITE_PATH)) throw new UsageError(`backup: there is no database at ${config.SQLITE_PATH} (SQLITE_PATH)`)
  const target = resolve(given)
  // Whether or not a database is beside it now (the live one, an older copy, or a copy made later):
  // a name SQLite keeps is never a copy's. Matched in any case, as a case-blind file system would.
  for (const [suffix, role] of Object.entries(SQLITE_FILES_BESIDE)) {
    if (target.toLowerCase().endsWith(suffix))
      throw new UsageError(
        `backup: ${given} ends in "${suffix}", a name SQLite keeps for a database's own ${role}: opening ${target.slice(0, -suffix.length)} would take the copy for it (and delete it); choose another name`,
      )
    if (lstatSync(`${target}${suffix}`, { throwIfNoEntry: false }))
      throw new UsageError(
        `backup: ${target}${suffix} exists; SQLite would open the copy with it as its ${role}: remove it or choose another name`,
      )
  }
  // Anything at that name is refused, a link too, even one that points nowhere (writing through
  // it would put the copy wherever it points).
  if (lstatSync(target, { throwIfNoEntry: false })) {
    const same = existsSync(target) && realpathSync(target) === realpathSync(config.SQLITE_PATH)
    throw new UsageError(
      same ? 'backup: the copy must be another file than the database' : `backup: ${given} exists already; choose a new name`,
    )
  }
  mkdirSync(dirname(target), { recursive: true })

  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.partial`)
  const removeTemporary = () => {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${temporary}${suffix}`, { force: true })
  }
  let summary: string
  try {
    await vacuumInto(config.SQLITE_PATH, temporary, progress)
    progress?.('backup: checking the copy…')
    summary = describeCopy(temporary)
    keepAs(temporary, target)
  } finally {
    progress?.('')
    removeTemporary()
  }
  out(`backup: ${given}: ${summary}\n`)
  return 0
}

/**
 * `VACUUM INTO` on a worker thread, so this one can tell a terminal how far it is (the size of the
 * file written so far against the database's) and stop cleanly on Ctrl-C: a worker ends once SQLite
 * returns, so an interrupted copy is removed after at most the time the copy takes.
 */
async function vacuumInto(database: string, file: string, progress: ((line: string) => void) | undefined): Promise<void> {
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads')
     const Database = require(workerData.driver)
     const source = new Database(workerData.database, { readonly: true, fileMustExist: true })
     try { source.prepare('VACUUM INTO ?').run(workerData.file) } finally { source.close() }`,
    { eval: true, workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), database, file } },
  )
  const total = statSync(database).size
  const megabytes = (bytes: number) => `${Math.round(bytes / 1e6).toLocaleString('en')} MB`
  const timer = progress
    ? setInterval(() => {
        const written = statSync(file, { throwIfNoEntry: false })?.size ?? 0
        progress(`backup: copied ${megabytes(written)} of about ${megabytes(total)}`)
      }, PROGRESS_EVERY_MS)
    : undefined
  let interrupted: NodeJS.Signals | undefined
  const stop = (signal: NodeJS.Signals) => {
    interrupted = signal
    progress?.('backup: stopping; the partial copy is removed')
    void worker.terminate()
  }
  process.on('SIGINT', stop).on('SIGTERM', stop)
  try {
    await new Promise<void>((done, fail) => {
      worker.once('error', fail)
      worker.once('exit', () => done())
    })
  } finally {
    clearInterval(timer)
    process.off('SIGINT', stop).off('SIGTERM', stop)
  }
  if (interrupted) throw new Error(`backup: stopped (${interrupted}); no copy was kept`)
}

/** Gives the checked copy its name, never replacing a file that appeared there in the meantime. */
function keepAs(temporary: string, target: string): void {
  try {
    linkSync(temporary, target)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new UsageError(`backup: ${target} appeared meanwhile; the copy was not kept`)
    // A file system without hard links (FAT, some network shares): a rename, which would replace a
    // file made in the instant since the check above.
    renameSync(temporary, target)
  }
}
