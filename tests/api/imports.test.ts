// CSV imports over the admin API (issue 51; docs/import.md), on both stores: a club's 1,000-line
// file with every case an import meets, read to exact counts and error lines, nobody mailed and no
// webhook per row; existing=fill; suppress mode; one import at a time; cancel; 413; who may import.
import { createHash } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImportReason, ImportStatus } from '../../contract/imports'
import { WEBHOOK_EVENTS } from '../../contract/webhooks'
import { readBreedName } from '../../server/breeds/catalogue'
import { adminGet, ended, imported, upload } from '../support/imports'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { joinTeam, runSql, sameSql } from '../support/team'

const ADMIN_TOKEN = 'imports-admin-token-0123456789abcdef'
const admin = { token: ADMIN_TOKEN }
const BASIS = "Members who ticked 'news about Kennect' on the club's 2026 form"

/** A cell as a spreadsheet writes it in a `;` file: quoted when it holds a quote, a delimiter or a line break. */
const cell = (text: string) => (/[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text)

const LANGUAGES = ['de', 'pl', 'EN', 'Français']
const COUNTRIES = ['DE', 'Polska', 'Deutschland', 'fr', '']
const ROLES = ['Breeder', 'owner', '']
/** One breed in three languages, and a name only an editor's mapping reads beside one nobody knows. */
const BREEDS = ['German Shepherd Dog', 'Deutscher Schäferhund', 'Owczarek niemiecki', 'Немецкая овчарка|Our own cross']

/** Who is on the waitlist before the file comes: 30 who joined (10 confirmed, 5 stopped e-mails), 10 suppressed. */
const known = (k: number) => `known${k}@club.example`
const gone = (k: number) => `gone${k}@club.example`

/**
 * The club's file: Mailchimp's address header and two columns the import does not read, `;` with a
 * byte-order mark and CRLF, one record over two lines (a name with a line break in it). Record i
 * (1 to 1,000) is at line i + 1, one more from record 100 on. Every 100 records: an address that is
 * not one (one of them a formula), a country and a role nobody knows, a repeat in capitals; records
 * 31 to 60 people who joined already, 61 to 70 suppressed addresses.
 */
function clubFile() {
  const lines: string[] = ['Email Address;First Name;Language;Country;Role;Breeds;Side;MEMBER_RATING']
  const errors: { line: number; email: string; reason: ImportReason }[] = []
  const member = (i: number) => `member${i}@Club.example`
  for (let i = 1; i <= 1000; i++) {
    const line = i + 1 + (i > 100 ? 1 : 0)
    let email = member(i)
    let country = COUNTRIES[i % 5] ?? ''
    let role = ROLES[i % 3] ?? ''
    let reason: ImportReason | undefined
    if (i % 100 === 7) {
      email = i === 7 ? '=HYPERLINK("http://evil.example")' : `not-an-address-${i}`
      reason = 'invalid_email'
    } else if (i % 100 === 13) {
      country = 'Atlantis'
      reason = 'unknown_country'
    } else if (i % 100 === 19) {
      role = 'judge'
      reason = 'unknown_role'
    } else if (i % 100 === 23) {
      email = member(i - 1).toUpperCase()
      reason = 'repeat'
    } else if (i >= 31 && i <= 60) {
      email = known(i - 31)
      reason = i - 31 >= 10 && i - 31 < 15 ? 'suppressed' : 'exists'
    } else if (i >= 61 && i <= 70) {
      email = gone(i - 61)
      reason = 'suppressed'
    }
    if (reason) errors.push({ line, email, reason })
    const breeds = i % 4 === 0 ? (BREEDS[(i / 4) % 4] ?? '') : ''
    const name = i === 100 ? 'Ada\r\nLovelace' : 'Łódź Club'
    const cells = [` ${email} `, name, LANGUAGES[i % 4] ?? '', country, role, breeds, role === 'Breeder' && breeds ? 'stud' : '', '2']
    lines.push(cells.map(cell).join(';'))
  }
  return { file: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8'), errors, member }
}

describe.each(STORES)('imports on $kind', ({ kind, available }) => {
  let server: TestServer

  beforeAll(async () => {
    if (!available) return
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' }, kind)
  })
  afterAll(() => server?.close())

  /** Every mail queued so far, whatever became of it. */
  const mails = async () => Object.values(await server.app.store.outbox.counts()).reduce((sum, n) => sum + n, 0)
  const events = async () =>
    Object.fromEntries(
      (await runSql(server, sameSql('SELECT type, count(*) AS n FROM webhook_events GROUP BY type'))).map((r) => [r.type, Number(r.n)]),
    )
  const signup = async (email: string) => (await server.app.store.list({ limit: 1, search: email }))[0]

  it.skipIf(!available)(
    'reads a club’s 1,000-line file to exact counts and error lines, and mails nobody and sends no webhook per row',
    async () => {
      const { store } = server.app
      // An endpoint for every event: none may come per imported person.
      await store.webhooks.addEndpoint(
        {
          url: 'https://hooks.example.com/kennect',
          description: 'CRM',
          events: [...WEBHOOK_EVENTS],
          enabled: true,
          include_email: false,
          secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
        },
        { actorId: null, actor: 'test', action: 'webhook created', target: null, detail: null, requestId: null },
      )
      for (let k = 0; k < 30; k++) {
        await store.add(row(known(k)))
        const id = (await signup(known(k)))?.id ?? 0
        if (k < 10) await store.visitors.confirm(id)
        if (k >= 10 && k < 15) await store.visitors.setSubscribed(id, false)
      }
      for (let k = 0; k < 10; k++) await store.suppressions.add(gone(k), await server.app.suppressions.hash(gone(k)))
      // A name the catalogue does not read, mapped by an editor before: the import reads it by the mapping.
      expect(await store.breeds.map(readBreedName('Немецкая овчарка').key, 'german-shepherd-dog')).toBe(0)
      const mailsBefore = await mails()
      const eventsBefore = await events()
      const signupsBefore = await store.count()

      const { file, errors, member } = clubFile()
      const status = await imported(server, admin, { mode: 'subscribe', basis: BASIS, label: 'Club 2026' }, file)
      expect(status).toMatchObject({
        status: 'done',
        mode: 'subscribe',
        existing: 'skip',
        basis: BASIS,
        label: 'Club 2026',
        rows: 1000,
        processed: 1000,
        added: 920,
        filled: 0,
        skipped: 50,
        failed: 30,
        ignoredColumns: ['First Name', 'MEMBER_RATING'],
        sha256: createHash('sha256').update(file).digest('hex'),
        bytes: file.length,
        readBytes: file.length,
        by: 'ADMIN_TOKEN',
        error: null,
      })
      expect(Date.parse(status.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(status.startedAt))
      expect(await store.count()).toBe(signupsBefore + 920)

      // The error file: every line not added, by the file's own line, its formula made inert.
      const answer = await adminGet(server, admin, `/imports/${status.id}/errors.csv`)
      expect(answer.headers.get('content-type')).toMatch(/^text\/csv/)
      const text = await answer.text()
      expect(text.split('\r\n')[0]).toBe('line,email,reason')
      expect(text).toContain(`"8","'=HYPERLINK(""http://evil.example"")","invalid_email"`)
      const listed = (parse(text, { columns: true }) as { line: string; email: string; reason: string }[]).map((r) => ({
        line: Number(r.line),
        email: r.email.replace(/^'/, ''),
        reason: r.reason,
      }))
      expect(listed).toEqual(errors)

      // As the join would have stored them: trimmed, the language, country and breeds read in any language.
      const first = await signup('member1@club.example')
      expect(first).toMatchObject({
        email: 'member1@Club.example',
        utm_source: `import:${status.id}`,
        import_id: status.id,
        import_basis: BASIS,
        imported_at: status.startedAt,
        confirmed_at: null,
        unsubscribed_at: null,
        locale: 'pl',
        country: 'PL',
        role: 'owner',
      })
      expect(await signup('member8@club.example')).toMatchObject({
        breeds: ['Owczarek niemiecki'],
        country: 'FR',
        role: null,
        locale: 'de',
      })
      const breedsOf = async (email: string) =>
        (await store.visitors.data((await signup(email))?.id ?? 0)).profile.breeds.map((b) => [b.name, b.breed, b.side])
      // One breed in three languages, each name kept as typed; a breeder's side; a name nobody knows kept for the unmatched list.
      expect(await breedsOf('member16@club.example')).toEqual([['German Shepherd Dog', 'german-shepherd-dog', null]])
      expect(await breedsOf('member4@club.example')).toEqual([['Deutscher Schäferhund', 'german-shepherd-dog', null]])
      expect(await breedsOf('member8@club.example')).toEqual([['Owczarek niemiecki', 'german-shepherd-dog', null]])
      expect(await signup('member12@club.example')).toMatchObject({ country: 'DE', role: 'breeder', locale: 'de' })
      expect(await breedsOf('member12@club.example')).toEqual([
        ['Немецкая овчарка', 'german-shepherd-dog', 'stud'],
        ['Our own cross', null, 'stud'],
      ])
      expect((await store.breeds.unmatched(10)).map((n) => n.name)).toContain('Our own cross')
      // The data download says where the address came from, and on what basis.
      expect((await store.visitors.data(first?.id ?? 0)).signup).toMatchObject({
        import_id: status.id,
        import_basis: BASIS,
        imported_at: status.startedAt,
      })
      // The people who joined are as they were; the suppressed and the stopped stay out.
      expect((await signup(known(0)))?.confirmed_at).not.toBeNull()
      expect((await signup(known(10)))?.unsubscribed_at).not.toBeNull()
      expect(await signup(gone(0))).toBeUndefined()
      // The repeat in capitals is the same person, once.
      expect((await store.list({ limit: 5, search: member(22) })).length).toBe(1)

      // Nothing was mailed: not one outbox row more. One webhook event, the import's own.
      expect(await mails()).toBe(mailsBefore)
      const eventsAfter = await events()
      expect({ ...eventsAfter, 'import.completed': undefined }).toEqual({ ...eventsBefore, 'import.completed': undefined })
      expect(eventsAfter['import.completed']).toBe(1)
      const [event] = await runSql(server, sameSql(`SELECT data FROM webhook_events WHERE type = 'import.completed'`))
      expect(typeof event?.data === 'string' ? JSON.parse(event.data) : event?.data).toEqual({
        id: status.id,
        status: 'done',
        mode: 'subscribe',
        rows: 1000,
        processed: 1000,
        added: 920,
        filled: 0,
        skipped: 50,
        failed: 30,
      })
      // The audit log: who, the file's hash, the mode, the basis and the counts.
      const audit = (await (await adminGet(server, admin, '/audit?limit=10')).json()) as {
        items: { action: string; actor: string; detail: Record<string, unknown> }[]
      }
      const finished = audit.items.find((item) => item.action === 'import finished')
      expect(finished).toMatchObject({
        actor: 'ADMIN_TOKEN',
        detail: { sha256: status.sha256, mode: 'subscribe', basis: BASIS, status: 'done', rows: 1000, added: 920, skipped: 50, failed: 30 },
      })
      expect(audit.items.some((item) => item.action === 'import started' && item.detail.sha256 === status.sha256)).toBe(true)
      // The demand map counts them apart from those who joined themselves.
      const map = (await (await adminGet(server, admin, '/segments')).json()) as { imported: { total: number }; total: number }
      expect(map.imported.total).toBe(920)
    },
  )

  it.skipIf(!available)(
    'with existing=fill gives people only the fields they never gave, and never brings back one who stopped e-mails',
    async () => {
      const { store } = server.app
      await store.add(row('fill.empty@example.com', { locale: 'fr' }))
      await store.add(row('fill.full@example.com'))
      await store.add(row('fill.stopped@example.com'))
      const empty = (await signup('fill.empty@example.com'))?.id ?? 0
      const full = (await signup('fill.full@example.com'))?.id ?? 0
      const stopped = (await signup('fill.stopped@example.com'))?.id ?? 0
      await store.visitors.confirm(full)
      await store.visitors.saveProfile(full, {
        role: 'owner',
        country: 'GB',
        club: null,
        litters: null,
        breeds: [{ name: 'Whippet', ...readBreedName('Whippet'), side: null, tests: [], otherTests: null }],
      })
      await store.visitors.setSubscribed(stopped, false)
      const file = [
        'email,language,country,role,breeds,side',
        'fill.empty@example.com,de,Niemcy,breeder,Whippet,dam',
        'fill.full@example.com,de,FR,breeder,Whippet;Pug,dam',
        'fill.stopped@example.com,de,DE,breeder,Pug,stud',
        'fill.new@example.com,,,,,',
      ].join('\n')
      const status = await imported(server, admin, { mode: 'subscribe', basis: BASIS, existing: 'fill' }, file)
      expect(status).toMatchObject({ status: 'done', rows: 4, added: 1, filled: 2, skipped: 1, failed: 0 })
      // The one who gave nothing gets all of it, but keeps the language they joined in.
      expect(await signup('fill.empty@example.com')).toMatchObject({
        country: 'DE',
        role: 'breeder',
        locale: 'fr',
        breeds: ['Whippet'],
        confirmed_at: null,
        utm_source: null,
      })
      expect((await store.visitors.data(empty)).profile.breeds.map((b) => b.side)).toEqual(['dam'])
      // The one who gave their own keeps it: only the side they never said of their Whippet comes in.
      const after = await store.visitors.data(full)
      expect(after.signup).toMatchObject({ country: 'GB', role: 'owner', locale: 'en' })
      expect(after.signup.confirmed_at).not.toBeNull()
      expect(after.profile.breeds.map((b) => [b.name, b.side])).toEqual([['Whippet', 'dam']])
      // Who stopped e-mails stays stopped and unchanged.
      expect(await signup('fill.stopped@example.com')).toMatchObject({ country: null, role: null, breeds: [] })
      expect((await signup('fill.stopped@example.com'))?.unsubscribed_at).not.toBeNull()
      expect((await (await adminGet(server, admin, `/imports/${status.id}/errors.csv`)).text()).split('\r\n').slice(1, -1)).toEqual([
        '"4","fill.stopped@example.com","suppressed"',
      ])
    },
  )

  it.skipIf(!available)('suppresses a list’s unsubscribed addresses, and their sign-ups stop e-mails', async () => {
    await server.app.store.add(row('left.us@example.com'))
    const status = await imported(
      server,
      admin,
      { mode: 'suppress' },
      'Email Address,First Name\nleft.us@example.com,Ada\nnever.joined@example.com,Bo\nleft.us@example.com,Ada\n',
    )
    expect(status).toMatchObject({ status: 'done', mode: 'suppress', rows: 3, added: 2, skipped: 1, failed: 0 })
    expect(await signup('left.us@example.com')).toMatchObject({ suppressed: 'imported' })
    expect((await signup('left.us@example.com'))?.unsubscribed_at).not.toBeNull()
    expect(await signup('never.joined@example.com')).toBeUndefined()
    // A later import never adds them back.
    const again = await imported(
      server,
      admin,
      { mode: 'subscribe', basis: BASIS },
      'email\nnever.joined@example.com\nleft.us@example.com\n',
    )
    expect(again).toMatchObject({ added: 0, skipped: 2 })
  })

  it.skipIf(!available)('runs one import at a time (409 for a second), and a cancel keeps what was written', async () => {
    const lines = ['email,country', ...Array.from({ length: 20_000 }, (_, i) => `big${i}@example.com,DE`)]
    const first = await upload(server, admin, { mode: 'subscribe', basis: BASIS }, lines.join('\n'))
    expect(first.status).toBe(202)
    const { id } = (await first.json()) as { id: number }
    const second = await upload(server, admin, { mode: 'subscribe', basis: BASIS }, 'email\nother@example.com\n')
    expect(second.status).toBe(409)
    expect(((await second.json()) as { message: string }).message).toMatch(/one at a time/)
    // Some batches written, then stopped where it is.
    await expect
      .poll(async () => ((await (await adminGet(server, admin, `/imports/${id}`)).json()) as ImportStatus).processed)
      .toBeGreaterThan(0)
    const cancelled = await fetch(`${server.url}/admin/api/imports/${id}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(cancelled.status).toBe(200)
    const status = (await cancelled.json()) as ImportStatus
    expect(status).toMatchObject({ status: 'cancelled', rows: null, failed: 0, skipped: 0 })
    expect(status.processed).toBeLessThan(20_000)
    const done = await ended(server, admin, id)
    expect(done.processed).toBe(status.processed)
    const [made] = await runSql(server, sameSql('SELECT count(*) AS n FROM waitlist WHERE import_id = ?'), [id])
    expect(Number(made?.n)).toBe(status.added)
    expect(status.added).toBe(status.processed)
    // Cancelled is ended: a second cancel has nothing to stop, and a new import may start.
    expect(
      (await fetch(`${server.url}/admin/api/imports/${id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }))
        .status,
    ).toBe(409)
    expect((await imported(server, admin, { mode: 'subscribe', basis: BASIS }, 'email\nafter.cancel@example.com\n')).added).toBe(1)
  })

  it.skipIf(!available)('refuses what it cannot start with a 400 naming the field, and changes nothing', async () => {
    const before = (await (await adminGet(server, admin, '/imports')).json()) as { items: unknown[] }
    const refused = async (fields: Record<string, string>, file: string) => {
      const answer = await upload(server, admin, fields, file)
      expect(answer.status).toBe(400)
      return ((await answer.json()) as { message: string }).message
    }
    expect(await refused({ mode: 'subscribe' }, 'email\na@example.com\n')).toMatch(/^basis: required/)
    expect(await refused({ mode: 'subscribe', basis: '   ' }, 'email\na@example.com\n')).toMatch(/^basis: required/)
    expect(await refused({ mode: 'unsubscribe', basis: BASIS }, 'email\na@example.com\n')).toMatch(/^mode: expected subscribe or suppress/)
    expect(await refused({ basis: BASIS }, 'email\na@example.com\n')).toMatch(/^mode: required/)
    expect(await refused({ mode: 'subscribe', basis: BASIS, existing: 'overwrite' }, 'email\na@example.com\n')).toMatch(
      /^existing: expected skip or fill/,
    )
    expect(await refused({ mode: 'subscribe', basis: BASIS }, 'name,mail\nAda,a@example.com\n')).toMatch(
      /^file: the header names no email column/,
    )
    expect(await refused({ mode: 'subscribe', basis: BASIS }, '')).toMatch(/^file: the file has no header/)
    // The fields come before the file: one after it is not read.
    const form = new FormData()
    form.append('file', new Blob(['email\na@example.com\n']), 'late.csv')
    form.append('mode', 'subscribe')
    const late = await fetch(`${server.url}/admin/api/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: form,
    })
    expect(late.status).toBe(400)
    expect(((await late.json()) as { message: string }).message).toMatch(/^mode: required/)
    expect(((await (await adminGet(server, admin, '/imports')).json()) as { items: unknown[] }).items).toHaveLength(before.items.length)
  })

  it.skipIf(!available)('answers 413 over IMPORT_MAX_BYTES, before reading a request that declares more, and imports nothing', async () => {
    const small = await startServer({ ADMIN_TOKEN, IMPORT_MAX_BYTES: '1000' }, kind)
    try {
      const file = `email\n${Array.from({ length: 60 }, (_, i) => `over${i}@example.com`).join('\n')}\n`
      expect(file.length).toBeGreaterThan(1000)
      // Declared small enough to be read, and over the limit once read.
      const over = await upload(small, admin, { mode: 'subscribe', basis: BASIS }, file)
      expect(over.status).toBe(413)
      expect(((await over.json()) as { message: string }).message).toMatch(/IMPORT_MAX_BYTES/)
      // Declared larger: answered before a byte of the body is sent.
      const declared = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${small.url}/admin/api/imports`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${ADMIN_TOKEN}`,
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': '60000000',
          },
        })
        req.on('response', (response) => {
          resolve(response.statusCode ?? 0)
          response.resume()
          req.destroy()
        })
        req.on('error', reject)
        req.flushHeaders()
      })
      expect(declared).toBe(413)
      expect(((await (await adminGet(small, admin, '/imports')).json()) as { items: unknown[] }).items).toEqual([])
      expect(await small.app.store.count()).toBe(0)
      // At the limit, it is taken.
      expect((await imported(small, admin, { mode: 'subscribe', basis: BASIS }, 'email\nat.limit@example.com\n')).added).toBe(1)
    } finally {
      await small.close()
    }
  })

  it.skipIf(!available)('lets an owner or editor import from the page, and answers a viewer 403', async () => {
    const viewer = await joinTeam(server, 'viewer.imports@kennect.example', 'viewer')
    expect((await upload(server, { cookie: viewer.cookie }, { mode: 'subscribe', basis: BASIS }, 'email\nv@example.com\n')).status).toBe(
      403,
    )
    expect((await adminGet(server, { cookie: viewer.cookie }, '/imports')).status).toBe(403)
    const editor = await joinTeam(server, 'editor.imports@kennect.example', 'editor')
    const status = await imported(server, { cookie: editor.cookie }, { mode: 'subscribe', basis: BASIS }, 'email\ne@example.com\n')
    expect(status).toMatchObject({ added: 1, by: 'editor.imports@kennect.example' })
    // From another site, the same cookie changes nothing.
    const form = new FormData()
    form.append('mode', 'subscribe')
    form.append('basis', BASIS)
    form.append('file', new Blob(['email\nx@example.com\n']), 'x.csv')
    const foreign = await fetch(`${server.url}/admin/api/imports`, {
      method: 'POST',
      headers: { cookie: editor.cookie, origin: 'https://evil.example' },
      body: form,
    })
    expect(foreign.status).toBe(403)
  })
})
