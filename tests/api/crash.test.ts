// C19: the server process is killed with SIGKILL while sign-ups pour in. After a restart, every
// address that was answered 201 is present: a 201 is only sent once the row is durable.
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config'
import { createStore } from '../../server/store/index'
import { type ServerProcess, spawnServer } from '../support/process'
import { freshDatabase } from '../support/server'
import { STORES } from '../support/stores'

const WORKERS = 16
const KILL_AFTER_ACKS = 400
const MAX_LOAD_MS = 10_000

describe.each(STORES)('C19: SIGKILL under concurrent inserts on $kind', ({ kind, available }) => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  it.skipIf(!available)('keeps every acknowledged sign-up', async () => {
    const db = await freshDatabase(kind)
    cleanups.push(db.cleanup)
    const env = { ...db.env, RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' }
    const first: ServerProcess = await spawnServer(env)
    cleanups.push(() => first.stop('SIGKILL'))

    const acknowledged: string[] = []
    let sent = 0
    let killed = false
    const started = Date.now()
    const worker = async (w: number) => {
      for (let i = 0; !killed && Date.now() - started < MAX_LOAD_MS; i++) {
        const email = `crash-${w}-${i}@example.com`
        sent++
        try {
          const response = await fetch(`${first.url}/rest/v1/waitlist`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ email }),
          })
          if (response.status === 201) acknowledged.push(email)
          if (acknowledged.length >= KILL_AFTER_ACKS && !killed) {
            killed = true
            first.child.kill('SIGKILL') // requests of the other workers are still in flight
          }
        } catch {
          return // the connection died with the server: this request was never acknowledged
        }
      }
    }
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)))
    expect(await first.stop('SIGKILL')).toBe('SIGKILL')
    expect(acknowledged.length).toBeGreaterThan(0)

    // A restart recovers the database (WAL replay) and serves again.
    const second = await spawnServer(env)
    cleanups.push(() => second.stop('SIGKILL'))
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200)
    expect(await second.stop('SIGTERM')).toBe(0)

    const store = await createStore(loadConfig(db.env), { warn: () => undefined })
    const present = new Set<string>()
    for (let afterId = 0; ;) {
      const page = await store.list({ afterId, limit: 1000 })
      if (page.length === 0) break
      for (const row of page) present.add(row.email)
      afterId = page.at(-1)?.id ?? afterId
    }
    await store.close()
    const lost = acknowledged.filter((email) => !present.has(email))
    console.log(`C19 ${kind}: sent ${sent}, acknowledged ${acknowledged.length}, present ${present.size}, lost ${lost.length}`)
    expect(lost).toEqual([])
    if (db.env.SQLITE_PATH) {
      const sqlite = new Database(db.env.SQLITE_PATH, { readonly: true })
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok')
      sqlite.close()
    }
  })
})
