// An import's server stopped mid-way (issue 51; docs/decisions/026-import.md), on both stores, with
// the built server: killed, its import keeps a prefix whose counts are its rows, and once its lease
// has run out (moved into the past here, as a clock would) it reads failed, and the next may start;
// stopped (SIGTERM), it ends its import as failed at once, its prefix kept.
import { afterEach, describe, expect, it } from 'vitest'
import type { ImportStatus } from '../../contract/imports'
import { loadConfig } from '../../server/config'
import { createStore, type WaitlistStore } from '../../server/store/index'
import { type ServerProcess, spawnServer } from '../support/process'
import { freshDatabase } from '../support/server'
import { STORES } from '../support/stores'
import { runSql, sameSql } from '../support/team'

const ADMIN_TOKEN = 'imports-crash-admin-token-0123456789'
const FILE = [
  'email,country,breeds',
  ...Array.from({ length: 60_000 }, (_, i) => `crash${i}@example.com,DE,${i % 4 === 0 ? 'Whippet' : ''}`),
].join('\n')

describe.each(STORES)('an import whose server stops, on $kind', ({ kind, available }) => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  /** A built server on a fresh store, an import of FILE started on it, and some of it written. */
  async function importing() {
    const db = await freshDatabase(kind)
    cleanups.push(db.cleanup)
    const env = { ...db.env, ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' }
    const server: ServerProcess = await spawnServer(env)
    cleanups.push(() => server.stop('SIGKILL'))
    const form = new FormData()
    form.append('mode', 'subscribe')
    form.append('basis', 'Club members who ticked news about Kennect')
    form.append('file', new Blob([FILE]), 'club.csv')
    const answer = await fetch(`${server.url}/admin/api/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: form,
    })
    expect(answer.status).toBe(202)
    const { id } = (await answer.json()) as { id: number }
    const status = async () =>
      (await (
        await fetch(`${server.url}/admin/api/imports/${id}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      ).json()) as ImportStatus
    await expect.poll(async () => (await status()).processed).toBeGreaterThan(0)
    return { env, server, id, status }
  }
  /** The store as the next server (or the command line) opens it. */
  async function reopened(env: Record<string, string>): Promise<WaitlistStore> {
    const store = await createStore(loadConfig(env), { warn: () => undefined }, { readerThread: false })
    cleanups.push(() => store.close())
    return store
  }
  const imported = async (env: Record<string, string>, id: number) =>
    Number((await runSql({ config: loadConfig(env) }, sameSql('SELECT count(*) AS n FROM waitlist WHERE import_id = ?'), [id]))[0]?.n)

  it.skipIf(!available)('killed: a consistent prefix, then failed once its lease has run out, and the next import may start', async () => {
    const { env, server, id } = await importing()
    expect(await server.stop('SIGKILL')).toBe('SIGKILL')
    const store = await reopened(env)
    const left = await store.imports.status(id)
    // Its worker is gone but its lease still runs: running, with exactly what its committed batches say.
    expect(left).toMatchObject({ status: 'running', rows: null, failed: 0, skipped: 0 })
    expect(left?.processed).toBeLessThan(60_000)
    expect(await imported(env, id)).toBe(left?.added)
    expect(left?.added).toBe(left?.processed)
    expect(
      await store.imports.start(
        { mode: 'subscribe', existing: 'skip', basis: 'x', label: null, sha256: 'a', bytes: 1, ignoredColumns: [], leaseMs: 1_000 },
        audit,
      ),
    ).toBe('busy')
    // Its lease runs out (30 s, moved into the past as a clock would): the next look marks it failed.
    await runSql({ config: loadConfig(env) }, sameSql(`UPDATE imports SET lease_until = ? WHERE id = ?`), ['2000-01-01T00:00:00.000Z', id])
    const failed = await store.imports.status(id)
    expect(failed).toMatchObject({
      status: 'failed',
      processed: left?.processed,
      added: left?.added,
      error: expect.stringMatching(/^interrupted/),
    })
    expect(await imported(env, id)).toBe(left?.added)
    const log = await store.team.auditLog({ limit: 5 })
    expect(log.find((line) => line.action === 'import finished')?.detail).toMatchObject({ status: 'failed', added: left?.added })
    expect(
      await store.imports.start(
        { mode: 'subscribe', existing: 'skip', basis: 'x', label: null, sha256: 'a', bytes: 1, ignoredColumns: [], leaseMs: 1_000 },
        audit,
      ),
    ).not.toBe('busy')
  })

  it.skipIf(!available)('stopped: its import ends as failed at once, its prefix kept', async () => {
    const { env, server, id } = await importing()
    expect(await server.stop('SIGTERM')).toBe(0)
    const store = await reopened(env)
    const status = await store.imports.status(id)
    expect(status).toMatchObject({ status: 'failed', error: expect.stringMatching(/^stopped/) })
    expect(await imported(env, id)).toBe(status?.added)
  })
})

const audit = (id: number) => ({
  actorId: null,
  actor: 'command line',
  action: 'import started' as const,
  target: `import ${id}`,
  detail: null,
  requestId: null,
})
