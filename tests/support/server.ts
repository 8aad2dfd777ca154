// Starts the real app on 127.0.0.1 with an ephemeral port and its own database.
import type { FastifyInstance } from 'fastify'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type AppOptions, buildApp } from '../../server/app'
import { type Config, type Env, loadConfig } from '../../server/config'
import { forgetMailbox } from './mailbox'
import { createTestSchema } from './postgres'
import { copySqliteTemplate, databaseFromTemplate } from './templates'
import type { StoreKind } from './stores'

export interface TestServer {
  url: string
  app: FastifyInstance
  store: StoreKind
  /** The configuration it runs with (its SQLITE_PATH or DATABASE_URL among it). */
  config: Config
  close: () => Promise<void>
}

/** A fresh SQLite file in its own temporary folder; `cleanup` removes the folder. */
export function tempSqlitePath(): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kennect-db-'))
  return { path: join(dir, 'waitlist.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The store's settings for a fresh database of the given kind (migrated, empty: support/templates.ts), and how to remove it. */
export async function freshDatabase(kind: StoreKind): Promise<{ env: Env; cleanup: () => Promise<void> }> {
  if (kind === 'postgres') {
    const db = (await databaseFromTemplate()) ?? (await createTestSchema())
    return { env: { DATABASE_URL: db.url }, cleanup: db.cleanup }
  }
  const db = tempSqlitePath()
  copySqliteTemplate(db.path)
  return { env: { SQLITE_PATH: db.path }, cleanup: async () => db.cleanup() }
}

/** `options.pageRoot`: serve another build of the page (e.g. one made for Supabase). */
export async function startServer(env: Env = {}, store: StoreKind = 'sqlite', options: AppOptions = {}): Promise<TestServer> {
  // A DATABASE_URL given by the test (a private PostgreSQL) is used as it is.
  const db = env.DATABASE_URL ? { env: {}, cleanup: async () => undefined } : await freshDatabase(store)
  // Mails without SMTP are files: in a folder of this server's own, never the checkout's data/.
  const mailDir = mkdtempSync(join(tmpdir(), 'kennect-mail-'))
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    MAIL_DIR: mailDir,
    ...db.env,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_PER_HOUR: '0',
    ...env,
  })
  const app = await buildApp(config, { ...options, logger: false })
  await app.listen({ host: config.HOST, port: config.PORT })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address')
  let closed = false
  return {
    url: `http://127.0.0.1:${address.port}`,
    app,
    store,
    config,
    close: async () => {
      if (closed) return
      closed = true
      await app.close()
      await db.cleanup()
      rmSync(mailDir, { recursive: true, force: true })
      forgetMailbox(mailDir)
    },
  }
}
