// The command line's launch-day commands against a real store of each kind, with a real server
// process on the same database sending the mails to a real SMTP server: segments, campaign create
// (and its dry run), send, status --follow to the end, pause, resume, list; a segment by every flag
// its definition gives (contract/segment.ts), --help made from it; bad input refused.
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtCli, runCli } from '../support/process'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { startSmtp, type TestSmtp } from '../support/smtp'
import { STORES } from '../support/stores'
import { profileOf, type TestProfile } from '../support/profile'
import { SEGMENT } from '../../contract/segment'

const run = promisify(execFile)

const PEOPLE: [string, TestProfile | null, boolean][] = [
  ['cli.breeder.gb@example.com', { role: 'breeder', breeds: [{ name: 'Whippet', side: 'stud' }], country: 'GB' }, true],
  ['cli.owner.gb@example.com', { role: 'owner', breeds: [{ name: 'whippet', side: 'seeker' }], country: 'GB' }, true],
  ['cli.breeder.de@example.com', { role: 'breeder', breeds: [], country: 'DE' }, true],
  ['cli.unconfirmed.gb@example.com', { role: 'breeder', breeds: [], country: 'GB' }, false],
]

describe.each(STORES)('npm run waitlist campaign on $kind', ({ kind, available }) => {
  let smtp: TestSmtp
  let server: TestServer
  let env: Record<string, string>
  const dir = mkdtempSync(join(tmpdir(), 'kennect-cli-campaign-'))
  const message = join(dir, 'launch.md')

  beforeAll(async () => {
    if (!available) return
    smtp = await startSmtp()
    server = await startServer({ SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' }, kind)
    const { SQLITE_PATH, DATABASE_URL } = server.config
    env = kind === 'postgres' ? { DATABASE_URL: DATABASE_URL ?? '' } : { SQLITE_PATH }
    for (const [email, profile, confirmed] of PEOPLE) {
      await server.app.store.add(row(email))
      const [listed] = await server.app.store.list({ limit: 1, search: email })
      if (profile) await server.app.store.visitors.saveProfile(listed?.id ?? 0, profileOf(profile))
      if (confirmed) await server.app.store.visitors.confirm(listed?.id ?? 0)
    }
    await smtp.waitFor(PEOPLE.length)
    writeFileSync(message, '# The app is here\n\nBreeders near you are waiting. [See your page]({{my_page_url}}).\n')
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  const cli = (...args: string[]) => runCli(env, ...args)

  it.skipIf(!available)('prints the demand map', async () => {
    const { code, stdout } = await cli('segments')
    expect(code).toBe(0)
    expect(stdout).toContain('total 4, confirmed 3, unsubscribed 0')
    expect(stdout).toMatch(/GB\s+2\s+1\s+0\s+0\s+0\s+3/)
    expect(stdout).toMatch(/2\s+Whippet\s+\(1 \/ 1 \/ 0\)/i)
  })

  it.skipIf(!available)('refuses what it cannot send, naming the option', async () => {
    expect(await cli('campaign', 'create', '--subject', 'S', '--markdown-file', message, '--role', 'admin')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--role'),
    })
    expect(await cli('campaign', 'create', '--subject', 'S', '--markdown-file', message, '--country', 'Narnia')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--country'),
    })
    writeFileSync(join(dir, 'bad.md'), 'Hi {{name}}')
    expect(await cli('campaign', 'create', '--subject', 'S', '--markdown-file', join(dir, 'bad.md'))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown placeholder {{name}}'),
    })
    expect(await cli('campaign', 'create', '--markdown-file', message)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--subject'),
    })
    expect(await cli('campaign', 'send', 'x')).toMatchObject({ code: 2 })
  })

  it.skipIf(!available)('counts and renders a dry run, and saves nothing', async () => {
    const before = (await cli('campaign', 'list')).stdout
    const dry = await cli(
      'campaign',
      'create',
      '--subject',
      'GB breeders',
      '--markdown-file',
      message,
      '--role',
      'breeder',
      '--country',
      'gb',
      '--dry-run',
    )
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain('dry run: 1 recipient; nothing was saved')
    expect(dry.stdout).toContain('[See your page](http')
    expect((await cli('campaign', 'list')).stdout).toBe(before)
  })

  it.skipIf(!available)('picks recipients by side and by ready breeds, and saves that segment whole', async () => {
    const base = ['campaign', 'create', '--subject', 'Whippet people', '--markdown-file', message]
    const dry = async (...flags: string[]) => {
      const answer = await cli(...base, ...flags, '--dry-run')
      expect(answer.code, `${flags.join(' ')}: ${answer.stderr}`).toBe(0)
      return /dry run: (\d+) recipient/.exec(answer.stdout)?.[1]
    }
    expect(await dry('--side', 'stud')).toBe('1')
    expect(await dry('--side', 'seeker')).toBe('1')
    expect(await dry('--side', 'stud', '--side', 'seeker')).toBe('2')
    expect(await dry('--side', 'dam')).toBe('0')
    // No breed is ready at the default targets; Whippet in GB is once one stud is enough.
    expect(await dry('--ready-breeds')).toBe('0')
    const targets = await server.app.store.breeds.targets()
    await server.app.store.breeds.setTargets({ default: { studs: 1, dams: 0 }, breeds: {} })
    try {
      expect(await dry('--ready-breeds')).toBe('2')
      expect(await dry('--ready-breeds', '--side', 'seeker')).toBe('1')
      const created = await cli(...base, '--side', 'seeker', '--side', 'stud', '--ready-breeds', '--country', 'gb')
      expect(created.stdout).toContain('a draft for 2 recipients')
      const id = Number(/campaign (\d+):/.exec(created.stdout)?.[1])
      // As the definition orders them, whatever the order typed.
      expect((await server.app.store.campaigns.get(id))?.segment).toEqual({
        countries: ['GB'],
        sides: ['stud', 'seeker'],
        readyBreeds: true,
      })
      expect(await server.app.store.campaigns.remove(id)).toBe('draft')
    } finally {
      await server.app.store.breeds.setTargets(targets)
    }
    expect(await cli(...base, '--side', 'king', '--dry-run')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--side: expected stud, dam or seeker, got "king"'),
    })
    expect(await cli(...base, '--since', '2026-11-01', '--until', '2026-10-01', '--dry-run')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--until: must come after --since'),
    })
    expect(await cli(...base, '--invited-at-least', 'many', '--dry-run')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--invited-at-least'),
    })
  })

  it.skipIf(!available)('lists every segment flag in --help, no list broken across lines', async () => {
    const { code, stdout } = await cli('--help')
    expect(code).toBe(0)
    for (const entry of Object.values(SEGMENT)) expect(stdout).toContain(`--${entry.flag}`)
    // A line that ends in a comma is a list the layout broke in two.
    expect(stdout.split('\n').filter((line) => /,\s*$/.test(line))).toEqual([])
  })

  it.skipIf(!available)('writes a campaign per language (English required), and picks recipients by language', async () => {
    const german = join(dir, 'launch.de.md')
    writeFileSync(german, '# Die App ist da\n\nZüchter in Ihrer Nähe warten. [Ihre Seite]({{my_page_url}}).\n')
    const base = ['campaign', 'create', '--subject', 'GB breeders', '--markdown-file', message, '--role', 'breeder', '--country', 'gb']
    const dry = await cli(...base, '--subject-de', 'Züchter in GB', '--markdown-file-de', german, '--dry-run')
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain('--- en ---\nSubject: GB breeders')
    expect(dry.stdout).toContain('--- de ---\nSubject: Züchter in GB')
    expect(dry.stdout).toContain('[Ihre Seite](http')
    // Everyone here signed up in English: a German segment is empty, an English one is not.
    expect((await cli(...base, '--locale', 'de', '--dry-run')).stdout).toContain('dry run: 0 recipients')
    expect((await cli(...base, '--locale', 'en', '--dry-run')).stdout).toContain('dry run: 1 recipient;')
    expect(await cli(...base, '--subject-de', 'Nur ein Betreff', '--dry-run')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('markdown.de: missing'),
    })
    expect(await cli(...base, '--locale', 'xx', '--dry-run')).toMatchObject({ code: 2, stderr: expect.stringContaining('--locale') })
  })

  it.skipIf(!available)('creates, sends and follows a campaign to its end; a second send queues nobody', async () => {
    const created = await cli('campaign', 'create', '--subject', 'Whippets', '--markdown-file', message, '--breed', 'WHIPPET')
    expect(created.code).toBe(0)
    const id = /campaign (\d+): a draft for 2 recipients/.exec(created.stdout)?.[1]
    expect(id).toBeDefined()
    smtp.received.length = 0
    expect((await cli('campaign', 'send', id ?? '')).stdout).toContain('2 mails queued')
    // --follow while the server sends: plain lines (no terminal) on stdout, as the status without
    // it says its line (issue 49, item 13), the last one the end; nothing on stderr.
    const follow = spawn(process.execPath, [builtCli(), 'campaign', 'status', id ?? '', '--follow'], {
      env: { PATH: process.env.PATH, ...env },
    })
    let progress = ''
    let errors = ''
    follow.stdout.on('data', (chunk: Buffer) => (progress += chunk.toString()))
    follow.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    const [code] = await once(follow, 'exit')
    expect(code).toBe(0)
    expect(errors).toBe('')
    expect(progress.trim().split('\n').at(-1)).toBe(
      `campaign ${id} (finished): sent 2 of 2, queued 0, failed 0, delivered 2, hard bounces 0, soft bounces 0, complaints 0`,
    )
    expect(smtp.received.map((m) => m.to).sort()).toEqual(['cli.breeder.gb@example.com', 'cli.owner.gb@example.com'])
    expect((await cli('campaign', 'send', id ?? '')).stdout).toContain('already sent to 2 recipients; nobody was queued twice')
    expect((await cli('campaign', 'list')).stdout).toMatch(new RegExp(`${id}\\s+finished\\s+2/2\\s+Whippets`))
    expect(await cli('campaign', 'pause', id ?? '')).toMatchObject({ code: 0 })
    expect(await cli('campaign', 'resume', id ?? '')).toMatchObject({ code: 0 })
    expect(await cli('campaign', 'pause', '9999')).toMatchObject({ code: 2, stderr: expect.stringContaining('no campaign 9999') })
  })

  it.skipIf(!available || !existsSync('/usr/bin/script'))('draws a progress bar on a terminal', async () => {
    const created = await cli('campaign', 'create', '--subject', 'On a terminal', '--markdown-file', message, '--country', 'DE')
    const id = /campaign (\d+):/.exec(created.stdout)?.[1] ?? ''
    await cli('campaign', 'send', id)
    // `script` gives the command a pseudo-terminal of its own, as a person's shell would.
    const command = [process.execPath, builtCli(), 'campaign', 'status', id, '--follow'].map((part) => `'${part}'`).join(' ')
    const { stdout } = await run('/usr/bin/script', ['-qec', command, '/dev/null'], { env: { PATH: process.env.PATH, ...env } })
    expect(stdout).toContain(`\r[${'#'.repeat(30)}] 100% campaign ${id} (finished): sent 1 of 1`)
  })
})
