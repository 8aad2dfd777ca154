// Backups as the README's Operating section takes them, restored and checked (issue 30, item 15).
// SQLite: `waitlist backup FILE` while the server runs and takes sign-ups, then a server started on
// the copy. PostgreSQL: pg_dump's custom format, the schema dropped, pg_restore, and the counts.
import { execFile, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestSchema, postgresAvailable, TEST_DATABASE_URL } from '../support/postgres'
import { type ServerProcess, spawnServer } from '../support/process'
import { tempSqlitePath } from '../support/server'

const waitlist = (env: Record<string, string>, ...args: string[]) => {
  const run = spawnSync(process.execPath, ['scripts/waitlist.mjs', ...args], { env: { PATH: process.env.PATH, ...env } })
  return { code: run.status, out: run.stdout.toString(), err: run.stderr.toString() }
}
/** The same, without blocking this process: its sign-ups go on meanwhile. */
const waitlistAsync = (env: Record<string, string>, ...args: string[]) =>
  new Promise<{ code: number; out: string; err: string }>((resolve) =>
    execFile(process.execPath, ['scripts/waitlist.mjs', ...args], { env: { PATH: process.env.PATH, ...env } }, (error, out, err) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    ),
  )
/** Many sign-ups from one address: the limiter counts nothing here. */
const UNLIMITED = { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' }
const join1 = (url: string, email: string) =>
  fetch(`${url}/rest/v1/waitlist`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })

let running: ServerProcess | undefined
const cleanups: (() => void | Promise<void>)[] = []
afterEach(async () => {
  await running?.stop('SIGKILL')
  running = undefined
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

describe('backups', () => {
  it('copies SQLite while the server takes sign-ups, checks the copy, and a server runs on it', async () => {
    const db = tempSqlitePath()
    const dir = mkdtempSync(join(tmpdir(), 'kennect-backup-'))
    cleanups.push(db.cleanup, () => rmSync(dir, { recursive: true, force: true }))
    running = await spawnServer({ ...UNLIMITED, SQLITE_PATH: db.path })
    const url = running.url
    for (let i = 0; i < 20; i++) expect((await join1(url, `before${i}@example.com`)).status).toBe(201)
    // Sign-ups go on while the copy is taken.
    let stop = false
    const writer = (async () => {
      let n = 0
      while (!stop) expect((await join1(url, `during${n++}@example.com`)).status).toBe(201)
      return n
    })()
    const copy = join(dir, 'waitlist-copy.db')
    const backup = await waitlistAsync({ SQLITE_PATH: db.path }, 'backup', copy)
    stop = true
    const during = await writer
    expect(during).toBeGreaterThan(0)
    expect(backup.err).toBe('')
    expect(backup.code).toBe(0)
    const held = Number(/: ([\d,]+) sign-ups/.exec(backup.out)?.[1]?.replace(/,/g, ''))
    expect(backup.out).toContain('integrity ok')
    expect(held).toBeGreaterThanOrEqual(20)
    expect(held).toBeLessThanOrEqual(20 + during)
    // A second backup to the same file is refused, and nothing is overwritten.
    expect(waitlist({ SQLITE_PATH: db.path }, 'backup', copy).code).not.toBe(0)

    // Restored: a server on the copy answers, and holds what the copy said.
    await running.stop()
    running = await spawnServer({ ...UNLIMITED, SQLITE_PATH: copy })
    expect((await fetch(`${running.url}/`)).status).toBe(200)
    expect(waitlist({ SQLITE_PATH: copy }, 'count').out.trim()).toBe(String(held))
    expect((await join1(running.url, 'after-restore@example.com')).status).toBe(201)
  }, 60_000)

  it('sends a PostgreSQL operator to pg_dump', () => {
    const answer = waitlist({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, 'backup', join(tmpdir(), 'never.db'))
    expect(answer.code).not.toBe(0)
    expect(answer.err).toContain('pg_dump')
    expect(existsSync(join(tmpdir(), 'never.db'))).toBe(false)
  })

  it.skipIf(!postgresAvailable)(
    'dumps PostgreSQL with pg_dump, restores it with pg_restore, and the counts hold',
    async () => {
      const schema = await createTestSchema()
      cleanups.push(schema.cleanup)
      const dir = mkdtempSync(join(tmpdir(), 'kennect-dump-'))
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
      running = await spawnServer({ ...UNLIMITED, DATABASE_URL: schema.url })
      for (let i = 0; i < 12; i++) expect((await join1(running.url, `pg${i}@example.com`)).status).toBe(201)
      await running.stop()
      running = undefined
      const dump = join(dir, 'kennect.dump')
      // The README's commands, on the test's schema (a deployment dumps its whole database).
      const base = TEST_DATABASE_URL ?? ''
      const dumped = spawnSync('pg_dump', ['--format=custom', `--schema=${schema.schema}`, '--file', dump, base])
      expect(dumped.status, dumped.stderr.toString()).toBe(0)
      const client = new pg.Client({ connectionString: base })
      await client.connect()
      await client.query(`DROP SCHEMA ${schema.schema} CASCADE`)
      await client.end()
      const restored = spawnSync('pg_restore', ['--no-owner', '--dbname', base, dump])
      expect(restored.status, restored.stderr.toString()).toBe(0)
      expect(waitlist({ DATABASE_URL: schema.url }, 'count').out.trim()).toBe('12')
      running = await spawnServer({ ...UNLIMITED, DATABASE_URL: schema.url })
      expect((await join1(running.url, 'after-restore@example.com')).status).toBe(201)
    },
    60_000,
  )
})
