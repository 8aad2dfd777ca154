import Database from 'better-sqlite3'
import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { runToExit, type ServerProcess, spawnServer } from '../support/process'
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

  it('refuses to start on a bad configuration, naming every wrong variable', async () => {
    const { code, output } = await runToExit({ PORT: 'x', RATE_LIMIT_PER_HOUR: 'lots' })
    expect(code).toBe(1)
    expect(output).toContain('Invalid configuration')
    expect(output).toMatch(/PORT: .*got "x"/)
    expect(output).toMatch(/RATE_LIMIT_PER_HOUR: .*got "lots"/)
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
    socket.write(`POST /rest/v1/waitlist HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`)
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
