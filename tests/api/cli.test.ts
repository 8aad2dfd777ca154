// The operators' command line (dist/server/operators/cli.js, what `npm run waitlist` runs) against a real
// store of each kind.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config'
import { createStore, type WaitlistStore } from '../../server/store/index'
import { runCli } from '../support/process'
import { freshDatabase } from '../support/server'
import { STORES } from '../support/stores'
import { row } from '../support/rows'
import { hashToken } from '../../server/secrets'

describe.each(STORES)('npm run waitlist on $kind', ({ kind, available }) => {
  let env: Record<string, string>
  let cleanup: () => Promise<void>
  let store: WaitlistStore
  const dir = mkdtempSync(join(tmpdir(), 'kennect-cli-'))

  beforeAll(async () => {
    if (!available) return
    const db = await freshDatabase(kind)
    env = db.env as Record<string, string>
    cleanup = db.cleanup
    store = await createStore(loadConfig(env), { warn: () => undefined })
    await store.add(row('ada@example.com', { utm_source: 'newsletter', utm_medium: 'email' }))
    await store.add(row('evil@example.com', { utm_source: '=HYPERLINK("http://evil.example","click")', referrer: 'a,b.example' }))
    await store.add(row('grace@example.com', { referrer: 'club.example' }))
  })
  afterAll(async () => {
    await store?.close()
    await cleanup?.()
    rmSync(dir, { recursive: true, force: true })
  })

  const cli = (...args: string[]) => runCli(env, ...args)

  it.skipIf(!available)('prints the funnel with sign-ups per visit, never a share of the visitors over 100 %', async () => {
    // One visitor of the page today; the three sign-ups came without a visit (as through the API).
    const day = new Date().toISOString().slice(0, 10)
    await store.growth.addViews([{ day, source: 'direct', views: 2, visitors: [Buffer.alloc(32, 7)] }])
    const { code, stdout } = await cli('funnel', '--since', day)
    expect(code).toBe(0)
    const shares = [...stdout.matchAll(/([\d,.]+) %/g)].map((found) => Number(found[1]?.replace(/,/g, '')))
    expect(shares.filter((share) => share > 100)).toEqual([])
    expect(stdout).toMatch(new RegExp(`^  ${day} +2 +1 +3 +0 +0 +0 +3 +0\\.0 %$`, 'm'))
    expect(stdout).toMatch(/^ {2}direct +2 +1 +0 +0 +0$/m)
  })

  it.skipIf(!available)('counts, also since a date', async () => {
    expect(await cli('count')).toMatchObject({ code: 0, stdout: '3\n' })
    expect(await cli('count', '--since', '2999-01-01')).toMatchObject({ code: 0, stdout: '0\n' })
  })

  it.skipIf(!available)('exports CSV that a spreadsheet cannot run as formulas', async () => {
    const { code, stdout } = await cli('export')
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split('\r\n')
    expect(lines[0]).toBe(
      'id,email,created_at,utm_source,utm_medium,utm_campaign,referrer,confirmed_at,unsubscribed_at,role,breeds,country,mail_state,invited_by,invites_confirmed,locale,platform,claimed_at,partner',
    )
    expect(lines).toHaveLength(4)
    expect(lines[1]).toMatch(/^"\d+","ada@example\.com","\d{4}-\d\d-\d\dT[\d:.]+Z","newsletter","email",,,,,,,,"queued",,"0","en",,,$/)
    expect(lines[2]).toContain(`,"'=HYPERLINK(""http://evil.example"",""click"")",,,"a,b.example"`)
  })

  it.skipIf(!available)('exports JSON to a file, and nothing since a future date', async () => {
    const out = join(dir, `signups-${kind}.json`)
    const { code, stderr } = await cli('export', '--format', 'json', '--out', out)
    expect(code).toBe(0)
    expect(stderr).toContain('exported 3 sign-ups')
    const rows = JSON.parse(readFileSync(out, 'utf8')) as { email: string; utm_source: string | null }[]
    expect(rows.map((r) => r.email)).toEqual(['ada@example.com', 'evil@example.com', 'grace@example.com'])
    expect(rows[1]?.utm_source).toBe('=HYPERLINK("http://evil.example","click")') // JSON keeps data as it is
    expect(JSON.parse((await cli('export', '--format', 'json', '--since', '2999-01-01')).stdout)).toEqual([])
  })

  it.skipIf(!available)('shows totals, days and sources', async () => {
    const { code, stdout } = await cli('stats')
    expect(code).toBe(0)
    expect(stdout).toContain('total: 3')
    expect(stdout).toMatch(new RegExp(`${new Date().toISOString().slice(0, 10)}\\s+3`))
    expect(stdout).toMatch(/1\s+newsletter/)
    expect(stdout).toMatch(/1\s+club\.example/)
  })

  it.skipIf(!available)('removes an address for good without repeating it', async () => {
    const removed = await cli('remove', 'GRACE@example.com')
    expect(removed).toMatchObject({ code: 0, stdout: 'removed 1 sign-up\n' })
    expect(await cli('remove', 'grace@example.com')).toMatchObject({ code: 1, stdout: 'no sign-up with that address\n' })
    expect((await store.list({ limit: 10 })).map((r) => r.email)).toEqual(['ada@example.com', 'evil@example.com'])
  })

  it.skipIf(!available)('invites an operator with a setup link, lists the team, and reads and purges the audit log', async () => {
    expect(await cli('operator', 'invite', 'not-an-address')).toMatchObject({ code: 2 })
    expect(await cli('operator', 'invite', 'ops@kennect.example', '--role', 'god')).toMatchObject({ code: 2 })
    expect(await cli('operator', 'list')).toMatchObject({ code: 0, stdout: expect.stringContaining('no operator yet') })
    const invited = await cli('operator', 'invite', 'ops@kennect.example', '--role', 'editor')
    expect(invited.code).toBe(0)
    const token = /\/admin\/setup\/([A-Za-z0-9_-]{43})$/m.exec(invited.stdout)?.[1] ?? ''
    const link = await store.team.openLink(hashToken(token), ['setup'])
    expect(link).toMatchObject({ email: 'ops@kennect.example', role: 'editor', purpose: 'setup' })
    expect(Date.parse(link?.expires_at ?? '') - Date.now()).toBeLessThanOrEqual(60 * 60_000)
    // What the command line did is in the log, as the command line's (the export above too, with its rows).
    const log = await cli('audit', '--limit', '50')
    expect(log.code).toBe(0)
    expect(log.stdout).toMatch(/command line\s+setup link made/)
    expect(log.stdout).toMatch(/command line\s+signups exported/)
    expect(log.stdout).not.toMatch(/ada@example\.com|grace@example\.com|evil@example\.com/)
    expect(await cli('audit', 'purge')).toMatchObject({ code: 2 })
    expect(await cli('audit', '--limit', '0')).toMatchObject({ code: 2 })
    const purged = await cli('audit', 'purge', '--before', '2999-01-01')
    expect(purged.stdout).toMatch(/^removed [1-9]\d* line\(s\)/)
    const after = await store.team.auditLog({ limit: 10 })
    expect(after.map((item) => [item.actor, item.action])).toEqual([['command line', 'audit purged']])
  })

  it.skipIf(!available)('adds, lists, tests and reads webhooks, refusing what the API refuses', async () => {
    expect(await cli('webhooks', 'add', 'http://hooks.example.com/x', '--event', 'signup.created')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('must start with https'),
    })
    expect(await cli('webhooks', 'add', 'https://10.0.0.1/x', '--event', 'signup.created')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('not a public address'),
    })
    expect(await cli('webhooks', 'add', 'https://93.184.215.14/x', '--event', 'signup.made')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--event: unknown event'),
    })
    expect(await cli('webhooks', 'add', 'https://93.184.215.14/x')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--event: at least one'),
    })
    expect(await store.webhooks.endpoints()).toEqual([])
    const added = await cli(
      'webhooks',
      'add',
      'https://93.184.215.14/kennect',
      '--event',
      'signup.created',
      '--event',
      'signup.confirmed',
      '--description',
      'CRM',
    )
    expect(added.code).toBe(0)
    const secret = /^(whsec_[A-Za-z0-9+/=]{44})$/m.exec(added.stdout)?.[1]
    expect(secret).toBeDefined()
    const [made] = await store.webhooks.endpoints()
    expect(made).toMatchObject({
      url: 'https://93.184.215.14/kennect',
      events: ['signup.created', 'signup.confirmed'],
      description: 'CRM',
      secret,
    })
    expect((await cli('webhooks', 'list')).stdout).toMatch(
      new RegExp(`^\\s+${made?.id}  enabled   https://93\\.184\\.215\\.14/kennect  signup\\.created,signup\\.confirmed$`, 'm'),
    )
    expect((await cli('webhooks', 'list')).stdout).not.toContain(secret)
    expect(await cli('webhooks', 'test', String(made?.id))).toMatchObject({ code: 0 })
    expect(await cli('webhooks', 'test', '999')).toMatchObject({ code: 2 })
    expect(await cli('webhooks', 'log', String(made?.id))).toMatchObject({ code: 0, stdout: 'no delivery yet\n' })
    const audit = await cli('audit', '--limit', '5')
    expect(audit.stdout).toMatch(/command line\s+webhook test sent/)
    expect(audit.stdout).toMatch(/command line\s+webhook created/)
  })

  it.skipIf(!available)('explains itself and refuses bad input', async () => {
    const help = await cli('--help')
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: npm run waitlist -- <command>')
    expect(await cli('frobnicate')).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "frobnicate"') })
    expect(await cli('count', '--since', 'yesterday-ish')).toMatchObject({ code: 2, stderr: expect.stringContaining('--since') })
    expect(await cli('export', '--format', 'xml')).toMatchObject({ code: 2, stderr: expect.stringContaining('--format') })
  })
})
