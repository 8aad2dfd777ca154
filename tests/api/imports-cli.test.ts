// `npm run -s waitlist -- import FILE` (issue 51), on both stores: the command line imports as the
// server does, one summary line on stdout that says what the API says, progress on stderr; it
// exits 0 when the import finished (failed lines or not) and 2 when it was refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImportStatus } from '../../contract/imports'
import { adminGet } from '../support/imports'
import { runCli } from '../support/process'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'

const ADMIN_TOKEN = 'imports-cli-admin-token-0123456789ab'
const BASIS = 'Breed show sign-up sheet, Dortmund 2026: ticked news about Kennect'

describe.each(STORES)('waitlist import on $kind', ({ kind, available }) => {
  let server: TestServer
  let env: Record<string, string>
  const dir = mkdtempSync(join(tmpdir(), 'kennect-import-cli-'))
  const file = join(dir, 'show.csv')

  beforeAll(async () => {
    if (!available) return
    server = await startServer({ ADMIN_TOKEN }, kind)
    env = server.config.DATABASE_URL ? { DATABASE_URL: server.config.DATABASE_URL } : { SQLITE_PATH: server.config.SQLITE_PATH }
  })
  afterAll(async () => {
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it.skipIf(!available)('says in one line on stdout what the API says of the import, and exits 0 with lines that failed', async () => {
    await server.app.store.add(row('already@show.example'))
    writeFileSync(
      file,
      [
        'email;country;breeds;Notes',
        'ann@show.example;Deutschland;Whippet;x',
        'already@show.example;;;',
        'not an address;;;',
        'ANN@show.example;;;',
        'ben@show.example;Atlantis;;',
      ].join('\r\n'),
    )
    const run = await runCli(env, 'import', file, '--mode', 'subscribe', '--basis', BASIS)
    expect(run.code, run.stderr).toBe(0)
    const lines = run.stdout.split('\n').filter(Boolean)
    expect(lines).toHaveLength(1)
    const [summary = ''] = lines
    const id = Number(/^import (\d+) done:/.exec(summary)?.[1])
    const status = (await (await adminGet(server, { token: ADMIN_TOKEN }, `/imports/${id}`)).json()) as ImportStatus
    expect(status).toMatchObject({
      status: 'done',
      rows: 5,
      added: 1,
      filled: 0,
      skipped: 2,
      failed: 2,
      basis: BASIS,
      by: 'command line',
      ignoredColumns: ['Notes'],
    })
    expect(summary).toBe(
      `import ${id} done: ${status.rows} rows, ${status.added} added, ${status.filled} filled, ${status.skipped} skipped, ${status.failed} failed`,
    )
    // Not a terminal: plain lines on stderr, the file read to its end.
    expect(run.stderr).toMatch(new RegExp(`^import ${id}: 100% of the file read$`, 'm'))
    expect((await runCli(env, 'import', 'status', String(id))).stdout).toBe(`${summary}\n`)
    const errors = await runCli(env, 'import', 'errors', String(id))
    expect(errors.stdout).toBe(
      'line,email,reason\r\n"3","already@show.example","exists"\r\n"4","not an address","invalid_email"\r\n"5","ANN@show.example","repeat"\r\n"6","ben@show.example","unknown_country"\r\n',
    )
  })

  it.skipIf(!available)('exits 2 when it is refused, naming what is wrong, and imports nothing', async () => {
    writeFileSync(file, 'email\nrefused@show.example\n')
    const before = (await server.app.store.imports.list(100)).length
    const noBasis = await runCli(env, 'import', file, '--mode', 'subscribe')
    expect(noBasis.code).toBe(2)
    expect(noBasis.stderr).toMatch(/^--basis: required/)
    const badMode = await runCli(env, 'import', file, '--mode', 'optin', '--basis', BASIS)
    expect(badMode.stderr).toMatch(/^--mode: expected subscribe or suppress, got "optin"/)
    writeFileSync(file, 'name\nrefused\n')
    const noEmail = await runCli(env, 'import', file, '--mode', 'subscribe', '--basis', BASIS)
    expect(noEmail.code).toBe(2)
    expect(noEmail.stderr).toMatch(/header names no email column/)
    const missing = await runCli(env, 'import', join(dir, 'missing.csv'), '--mode', 'subscribe', '--basis', BASIS)
    expect(missing.code).toBe(2)
    const big = await runCli({ ...env, IMPORT_MAX_BYTES: '5' }, 'import', file, '--mode', 'subscribe', '--basis', BASIS)
    expect(big.code).toBe(2)
    expect(big.stderr).toMatch(/over IMPORT_MAX_BYTES/)
    expect(await server.app.store.imports.list(100)).toHaveLength(before)
  })
})
