// The test helper that starts the real entry point: a server that never says it listens (here, its
// log level hides the line) is stopped when the helper gives up on it, never left running.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { staleBuild } from '../../scripts/ensure-build.mjs'
import { spawnServer } from '../support/process'
import { tempSqlitePath } from '../support/server'

/** The processes whose environment names this database file (Linux's /proc). */
function processesWith(sqlitePath: string): number[] {
  const found: number[] = []
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0')
      const state = /^State:\s+(\w)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1]
      if (state !== 'Z' && environ.includes(`SQLITE_PATH=${sqlitePath}`)) found.push(Number(name))
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found
}

describe('spawnServer', () => {
  it('stops a server that did not start in time', async () => {
    const db = tempSqlitePath()
    try {
      const failure = await spawnServer({ SQLITE_PATH: db.path, LOG_LEVEL: 'warn' }, 3_000).then(
        () => null,
        (error: unknown) => error as Error,
      )
      expect(failure?.message).toMatch(/did not start/)
      for (let i = 0; i < 50 && processesWith(db.path).length > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 100))
      expect(processesWith(db.path)).toEqual([])
    } finally {
      for (const pid of processesWith(db.path)) process.kill(pid, 'SIGKILL')
      db.cleanup()
    }
  })
})

describe('staleBuild (what the process tests refuse to run)', () => {
  it('names the source changed after the build, and nothing while the build is newer', () => {
    const at = mkdtempSync(join(tmpdir(), 'kennect-stale-'))
    try {
      const file = (path: string, seconds: number) => {
        mkdirSync(join(at, path, '..'), { recursive: true })
        writeFileSync(join(at, path), '')
        utimesSync(join(at, path), seconds, seconds)
      }
      file('server/app.ts', 1_000)
      expect(staleBuild(at)).toBe('dist/')
      file('dist/.build-stamp', 2_000)
      expect(staleBuild(at)).toBeUndefined()
      file('locales/pl.json', 3_000)
      expect(staleBuild(at)).toBe('locales/pl.json')
      file('dist/.build-stamp', 4_000)
      expect(staleBuild(at)).toBeUndefined()
    } finally {
      rmSync(at, { recursive: true, force: true })
    }
  })
})
