// Each store migrated once per test run, then copied for every server a test starts: a SQLite file
// copied (milliseconds, against 100 to 250 of migrating), a PostgreSQL database made from a template
// database (CREATE DATABASE … TEMPLATE, about 50 ms on PostgreSQL 15, against 350 to 650 of migrating a schema). The
// migrations themselves run as the product runs them (the store's own `createStore`), once, here;
// a test that starts from an older schema makes its own (tempSqlitePath, createTestSchema).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
import { createStore } from '../../server/store/index'
import { TEST_DATABASE_URL } from './postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated SQLite file, to be copied. */
    sqliteTemplate: string | undefined
    /** A migrated PostgreSQL database (its name), a template for new ones. */
    postgresTemplate: string | undefined
  }
}

const quiet = { warn: () => undefined }

/** `base` with another database name. */
export function databaseUrl(base: string, name: string): string {
  const url = new URL(base)
  url.pathname = `/${name}`
  url.searchParams.delete('options')
  return url.toString()
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/**
 * Makes both templates (PostgreSQL's only when TEST_DATABASE_URL is set), provides their names to
 * the test files, and answers how to remove them. Run by a project's global setup.
 */
export async function makeTemplates(provide: (key: 'sqliteTemplate' | 'postgresTemplate', value: string | undefined) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'kennect-template-'))
  let postgres: string | undefined
  const remove = async () => {
    rmSync(dir, { recursive: true, force: true })
    const name = postgres
    if (name) await onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  }
  try {
    const sqlite = join(dir, 'waitlist.db')
    await (await createStore({ SQLITE_PATH: sqlite, DATABASE_URL: undefined }, quiet)).close()
    provide('sqliteTemplate', sqlite)
    if (TEST_DATABASE_URL) {
      const base = TEST_DATABASE_URL
      const name = `kennect_template_${process.pid}_${Date.now().toString(36)}`
      await onServer((client) => client.query(`CREATE DATABASE ${name}`))
      postgres = name
      await (await createStore({ DATABASE_URL: databaseUrl(base, name), SQLITE_PATH: '' }, quiet)).close()
    }
    provide('postgresTemplate', postgres)
  } catch (error) {
    // Nothing made is left behind when making it fails.
    await remove().catch(() => undefined)
    throw error
  }
  return remove
}

const provided = (key: 'sqliteTemplate' | 'postgresTemplate'): string | undefined => {
  try {
    return inject(key)
  } catch {
    return undefined // outside a project with a global setup: every store migrates itself
  }
}

/** Copies the migrated SQLite file to `path`, if there is one; answers whether it did. */
export function copySqliteTemplate(path: string): boolean {
  const template = provided('sqliteTemplate')
  if (!template) return false
  copyFileSync(template, path)
  return true
}

/** A new database made from the migrated template, or undefined when there is none. */
export async function databaseFromTemplate(): Promise<{ url: string; cleanup: () => Promise<void> } | undefined> {
  const template = provided('postgresTemplate')
  if (!template || !TEST_DATABASE_URL) return undefined
  const base = TEST_DATABASE_URL
  const name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
  await onServer((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`))
  return {
    url: databaseUrl(base, name),
    cleanup: () => onServer(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  }
}
