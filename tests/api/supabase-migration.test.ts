// db/supabase/ on a real PostgreSQL, with the roles a Supabase project has: what the anon key can
// and cannot do to the waitlist, as PostgREST would run it (SET ROLE inside a transaction).
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresAvailable, TEST_DATABASE_URL } from '../support/postgres'

const MIGRATIONS = join(process.cwd(), 'db', 'supabase', 'migrations')

describe.skipIf(!postgresAvailable)('Supabase migration (db/supabase)', () => {
  const name = `kennect_sb_${randomBytes(5).toString('hex')}`
  let admin: pg.Client
  let db: pg.Client

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await admin.connect()
    // The roles of a Supabase project (cluster-wide, so created once and kept). .ci/run's two
    // Node lines may create one at the same moment: the later is told it exists (42710), or, when
    // it waited on the other's uncommitted row, that its name is taken once that commits (23505);
    // either way the role is there.
    for (const [role, extra] of [
      ['anon', ''],
      ['authenticated', ''],
      ['service_role', ' BYPASSRLS'],
    ]) {
      await admin.query(
        `DO $$ BEGIN CREATE ROLE ${role} NOLOGIN${extra}; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
      )
    }
    await admin.query(`CREATE DATABASE ${name}`)
    const url = new URL(TEST_DATABASE_URL ?? '')
    url.pathname = `/${name}`
    db = new pg.Client({ connectionString: url.toString() })
    await db.connect()
    await db.query('GRANT USAGE ON SCHEMA public TO anon, authenticated, service_role')
    for (const file of readdirSync(MIGRATIONS).sort()) await db.query(readFileSync(join(MIGRATIONS, file), 'utf8'))
    // Applying it twice changes nothing (safe to re-run).
    for (const file of readdirSync(MIGRATIONS).sort()) await db.query(readFileSync(join(MIGRATIONS, file), 'utf8'))
  })

  afterAll(async () => {
    await db?.end()
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin?.end()
  })

  /** Runs one statement as the role, the way PostgREST does for a request. */
  async function as(role: string, sql: string, values: unknown[] = []): Promise<{ rows: unknown[]; rowCount: number | null }> {
    await db.query('BEGIN')
    try {
      await db.query(`SET LOCAL ROLE ${role}`)
      const result = await db.query(sql, values)
      await db.query('COMMIT')
      return result
    } catch (error) {
      await db.query('ROLLBACK')
      throw error
    }
  }
  const emails = async () => (await db.query('SELECT email FROM public.waitlist ORDER BY id')).rows.map((r) => r.email)
  const insert = (role: string, email: string) => as(role, 'INSERT INTO public.waitlist (email) VALUES ($1)', [email])

  it('lets anon insert an address', async () => {
    await insert('anon', 'ada@example.com')
    expect(await emails()).toEqual(['ada@example.com'])
  })

  it('skips a duplicate in any letter case silently, for anon and authenticated alike', async () => {
    await expect(insert('anon', 'ADA@Example.com')).resolves.toMatchObject({ rowCount: 0 })
    await expect(insert('authenticated', 'ada@EXAMPLE.COM')).resolves.toMatchObject({ rowCount: 0 })
    await insert('authenticated', 'grace@example.com')
    expect(await emails()).toEqual(['ada@example.com', 'grace@example.com'])
  })

  it('refuses invalid addresses with the named CHECK constraints', async () => {
    await expect(insert('anon', 'not-an-address')).rejects.toMatchObject({ code: '23514', constraint: 'waitlist_email_format' })
    await expect(insert('anon', `${'a'.repeat(65)}@example.com`)).rejects.toMatchObject({
      code: '23514',
      constraint: 'waitlist_email_length',
    })
    await expect(
      as('anon', "INSERT INTO public.waitlist (email, referrer) VALUES ('r@example.com', repeat('x', 201))"),
    ).rejects.toMatchObject({
      code: '23514',
      constraint: 'waitlist_attribution_length',
    })
  })

  it('lets anon set the attribution columns but not id or created_at', async () => {
    await as('anon', "INSERT INTO public.waitlist (email, utm_source, referrer) VALUES ('utm@example.com', 'newsletter', 'club.example')")
    await expect(as('anon', "INSERT INTO public.waitlist (email, created_at) VALUES ('t@example.com', now())")).rejects.toMatchObject({
      code: '42501',
    })
  })

  it("lets anon send an inviter's code, keeps a well-formed one, empties any other, and never shows one", async () => {
    const invite = (email: string, code: string) => as('anon', 'INSERT INTO public.waitlist (email, invite) VALUES ($1, $2)', [email, code])
    await expect(invite('friend@example.com', 'Ab-3_xY9Ab-3_xY9Ab-3_x')).resolves.toMatchObject({ rowCount: 1 })
    for (const [i, code] of ['x'.repeat(65), 'no spaces', '<script>', ''].entries())
      await expect(invite(`odd${i}@example.com`, code)).resolves.toMatchObject({ rowCount: 1 })
    const kept = await db.query("SELECT email, invite FROM public.waitlist WHERE email LIKE 'friend@%' OR email LIKE 'odd%' ORDER BY id")
    expect(kept.rows).toEqual([
      { email: 'friend@example.com', invite: 'Ab-3_xY9Ab-3_xY9Ab-3_x' },
      ...[0, 1, 2, 3].map((i) => ({ email: `odd${i}@example.com`, invite: null })),
    ])
    await expect(as('anon', 'SELECT invite FROM public.waitlist')).rejects.toMatchObject({ code: '42501' })
    await db.query("DELETE FROM public.waitlist WHERE email LIKE 'friend@%' OR email LIKE 'odd%'")
  })

  it("lets anon send the sign-up's language, keeps one of the six, stores anything else as English, and never shows it", async () => {
    const sent: [string | null, string][] = [
      ['de', 'de'],
      [' PL ', 'pl'],
      ['xx', 'en'],
      ["de'; drop table public.waitlist; --", 'en'],
      [null, 'en'],
    ]
    for (const [i, [locale]] of sent.entries())
      await expect(
        as('anon', 'INSERT INTO public.waitlist (email, locale) VALUES ($1, $2)', [`lang${i}@example.com`, locale]),
      ).resolves.toMatchObject({
        rowCount: 1,
      })
    await as('anon', "INSERT INTO public.waitlist (email) VALUES ('lang-none@example.com')")
    const kept = await db.query("SELECT locale FROM public.waitlist WHERE email LIKE 'lang%' ORDER BY id")
    expect(kept.rows.map((r: { locale: string }) => r.locale)).toEqual([...sent.map(([, stored]) => stored), 'en'])
    await expect(as('anon', 'SELECT locale FROM public.waitlist')).rejects.toMatchObject({ code: '42501' })
    await db.query("DELETE FROM public.waitlist WHERE email LIKE 'lang%'")
  })

  it.each(['anon', 'authenticated'])('denies %s select, update and delete', async (role) => {
    for (const sql of ['SELECT email FROM public.waitlist', "UPDATE public.waitlist SET email = 'x@y.z'", 'DELETE FROM public.waitlist']) {
      await expect(as(role, sql)).rejects.toMatchObject({ code: '42501' })
    }
    expect(await emails()).toContain('ada@example.com')
  })

  it('does not let the public roles call the trigger function directly', async () => {
    await expect(as('anon', 'SELECT public.waitlist_skip_duplicate()')).rejects.toMatchObject({ code: '42501' })
  })

  it('lets service_role read and manage everything', async () => {
    const { rows } = await as('service_role', 'SELECT email FROM public.waitlist ORDER BY id')
    expect(rows.map((r) => (r as { email: string }).email)).toEqual(['ada@example.com', 'grace@example.com', 'utm@example.com'])
    await as('service_role', "DELETE FROM public.waitlist WHERE email = 'grace@example.com'")
    expect(await emails()).not.toContain('grace@example.com')
  })
})
