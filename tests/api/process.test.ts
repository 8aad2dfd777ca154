import Database from 'better-sqlite3'
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runToExit, type ServerProcess, spawnServer } from '../support/process'
import { freePort } from '../support/ports'
import { postgresAvailable, TEST_DATABASE_URL } from '../support/postgres'
import { tempSqlitePath } from '../support/server'

const joinAs = (url: string, email: string) =>
  fetch(`${url}/rest/v1/waitlist`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email }) })

let running: ServerProcess | undefined
const db = tempSqlitePath()
afterEach(async () => {
  await running?.stop('SIGKILL')
  running = undefined
})

describe('the server process (dist/server/main.js)', () => {
  it('creates its SQLite file on first start, serves page and API, and exits 0 on SIGTERM', async () => {
    expect(existsSync(db.path)).toBe(false)
    running = await spawnServer({ SQLITE_PATH: db.path })
    const page = await fetch(`${running.url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect((await joinAs(running.url, 'first@example.com')).status).toBe(201)
    expect(await running.stop('SIGTERM')).toBe(0)
    running = undefined
    const rows = new Database(db.path, { readonly: true }).prepare('SELECT email FROM waitlist').pluck().all()
    expect(rows).toEqual(['first@example.com'])
  })

  it('keeps the sign-ups across a restart', async () => {
    running = await spawnServer({ SQLITE_PATH: db.path })
    expect((await joinAs(running.url, 'FIRST@example.com')).status).toBe(201)
    expect((await joinAs(running.url, 'second@example.com')).status).toBe(201)
    await running.stop('SIGTERM')
    running = undefined
    const rows = new Database(db.path, { readonly: true }).prepare('SELECT email FROM waitlist ORDER BY id').pluck().all()
    expect(rows).toEqual(['first@example.com', 'second@example.com'])
    db.cleanup()
  })

  it('prints one setup link for the first owner while there is no operator, and a new one at each start until there is', async () => {
    const fresh = tempSqlitePath()
    const setupLine = async (server: ServerProcess) => {
      for (let i = 0; i < 200 && !/No operator yet/.test(server.output()); i++) await new Promise((resolve) => setTimeout(resolve, 25))
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('No operator yet'))
      expect(lines).toHaveLength(1)
      const link =
        /^No operator yet: the first owner sets up the admin page within the hour at (http:\/\/localhost:\d+\/admin\/setup\/[A-Za-z0-9_-]{43})$/.exec(
          lines[0] ?? '',
        )?.[1]
      expect(link, lines[0]).toBeDefined()
      return link ?? ''
    }
    running = await spawnServer({ SQLITE_PATH: fresh.path })
    const first = await setupLine(running)
    // The link opens the setup (for whoever comes first: it names no address), and opening uses nothing up.
    const api = first.replace('/admin/setup/', '/admin/api/setup/').replace('localhost', '127.0.0.1')
    for (let i = 0; i < 2; i++) expect(await (await fetch(api)).json()).toMatchObject({ purpose: 'setup', email: null, role: 'owner' })
    await running.stop('SIGTERM')
    running = await spawnServer({ SQLITE_PATH: fresh.path })
    expect(await setupLine(running)).not.toBe(first)
    await running.stop('SIGTERM')
    running = undefined
    fresh.cleanup()
  })

  it('refuses to start on a bad configuration, naming every wrong variable', async () => {
    const { code, output } = await runToExit({ PORT: 'x', RATE_LIMIT_PER_HOUR: 'lots' })
    expect(code).toBe(1)
    expect(output).toContain('Invalid configuration')
    expect(output).toMatch(/PORT: .*got "x"/)
    expect(output).toMatch(/RATE_LIMIT_PER_HOUR: .*got "lots"/)
  })

  it('refuses to start on a store address that only starts well, naming it (issue 49)', async () => {
    const play = 'https://play.google.com:99999/store/apps/details?id=app.kennect'
    const { code, output } = await runToExit({ PLAY_STORE_URL: play, SQLITE_PATH: tempSqlitePath().path })
    expect(code).toBe(1)
    expect(output).toContain(`PLAY_STORE_URL: expected the https:// address of the app in Google Play`)
    expect(output).toContain(`got ${JSON.stringify(play)}`)
  })
})

describe('SIGTERM', () => {
  it('stops taking connections, finishes the request in flight, closes the store and exits 0', async () => {
    const { Socket } = await import('node:net')
    const fresh = tempSqlitePath()
    running = await spawnServer({ SQLITE_PATH: fresh.path, LOG_LEVEL: 'debug' })
    const { port } = new URL(running.url)
    // A sign-up whose body is still arriving when the signal comes.
    const body = JSON.stringify({ email: 'in-flight@example.com' })
    const socket = new Socket()
    await new Promise<void>((resolve) => socket.connect(Number(port), '127.0.0.1', resolve))
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString()))
    const answered = new Promise<void>((resolve) => socket.on('end', resolve))
    socket.write(
      `POST /rest/v1/waitlist HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    )
    socket.write(body.slice(0, 10))
    // The server has read the headers and waits for the body: the request is in flight.
    await running.waitForOutput(/"msg":"request received"/)
    const exited = running.stop('SIGTERM')
    await running.waitForOutput(/finishing in-flight requests/)
    // A new visitor is turned away while the in-flight request goes on.
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow()
    socket.end(body.slice(10))
    await answered
    expect(answer).toMatch(/^HTTP\/1\.1 201 /)
    expect(await exited).toBe(0)
    running = undefined
    const rows = new Database(fresh.path, { readonly: true }).prepare('SELECT email FROM waitlist').pluck().all()
    expect(rows).toEqual(['in-flight@example.com'])
    fresh.cleanup()
  })
})

describe('npm start', () => {
  /** Every process below pid, children first. */
  function descendants(pid: number): number[] {
    // ps exits 1 when there is none: the empty list.
    const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .stdout.split('\n')
      .map(Number)
      .filter(Boolean)
    return children.flatMap((child) => [...descendants(child), child])
  }
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
  let leftovers: number[] = []
  afterEach(() => {
    for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL')
    leftovers = []
  })

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the server when npm gets %s (as Docker and process managers send it)',
    async (signal) => {
      const db = tempSqlitePath()
      const port = await freePort()
      const npm = spawn('npm', ['start'], {
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SQLITE_PATH: db.path, LOG_LEVEL: 'warn' },
        stdio: 'ignore',
      })
      const npmExited = once(npm, 'exit')
      let ready = false
      for (let i = 0; i < 300 && !ready; i++) {
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(ready).toBe(true)
      leftovers = descendants(npm.pid ?? 0)
      expect(leftovers.length).toBeGreaterThan(0)
      npm.kill(signal)
      await npmExited
      // Every process npm started is gone, and with it the server.
      for (let i = 0; i < 50 && leftovers.some(alive); i++) await new Promise((resolve) => setTimeout(resolve, 100))
      expect(leftovers.filter(alive)).toEqual([])
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow()
      db.cleanup()
    },
    120_000,
  )
})

describe('a start that cannot work', () => {
  /** What a person reads: one or two plain lines, no stack trace, and a non-zero exit. */
  function expectPlainFailure({ code, output }: { code: number | NodeJS.Signals | null; output: string }, ...mentions: RegExp[]) {
    expect(code).toBe(1)
    const lines = output.trim().split('\n')
    expect(lines.length, output).toBeLessThanOrEqual(2)
    expect(output).not.toMatch(/^\s+at /m)
    for (const mention of mentions) expect(output).toMatch(mention)
  }

  it('says the port is in use, and how to choose another', async () => {
    const { createServer } = await import('node:net')
    const taken = createServer()
    const port = await freePort()
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve))
    try {
      const result = await runToExit({ PORT: String(port), SQLITE_PATH: tempSqlitePath().path })
      expectPlainFailure(result, new RegExp(`127\\.0\\.0\\.1:${port}`), /in use/, /PORT/)
    } finally {
      taken.close()
    }
  })

  it('says which SQLite file cannot be opened, and which variable sets it', async () => {
    expectPlainFailure(await runToExit({ SQLITE_PATH: '/proc/x.db' }), /\/proc\/x\.db/, /SQLITE_PATH/)
  })

  it('says PostgreSQL cannot be reached, without the password', async () => {
    const port = await freePort()
    const result = await runToExit({ DATABASE_URL: `postgres://kennect:SuperSecret123@127.0.0.1:${port}/kennect` })
    expectPlainFailure(result, /PostgreSQL/, new RegExp(`127\\.0\\.0\\.1:${port}`), /DATABASE_URL/)
    expect(result.output).not.toContain('SuperSecret123')
  })

  it.skipIf(!postgresAvailable)('says PostgreSQL refused the password, without the password', async () => {
    const url = new URL(TEST_DATABASE_URL ?? '')
    url.password = 'not-the-password-123'
    const result = await runToExit({ DATABASE_URL: url.toString() })
    expectPlainFailure(result, /PostgreSQL/, /password/, /DATABASE_URL/)
    expect(result.output).not.toContain('not-the-password-123')
  })

  it('says to run npm install when npm start comes before it', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'kennect-fresh-'))
    cpSync(join(process.cwd(), 'package.json'), join(fresh, 'package.json'))
    cpSync(join(process.cwd(), 'scripts'), join(fresh, 'scripts'), { recursive: true })
    const result = spawnSync(process.execPath, ['scripts/start.mjs'], { cwd: fresh, encoding: 'utf8', env: { PATH: process.env.PATH } })
    rmSync(fresh, { recursive: true, force: true })
    expectPlainFailure({ code: result.status, output: result.stdout + result.stderr }, /npm install/)
  })
})
