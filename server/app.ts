import Fastify, { type FastifyInstance } from 'fastify'
import type { Config } from './config.js'
import { clientDir } from './paths.js'
import { handleError } from './plugins/error-handler.js'
import { page } from './plugins/page.js'
import security from './plugins/security.js'
import { healthRoutes } from './routes/health.js'
import { waitlistRoutes } from './routes/waitlist.js'
import { createStore, type WaitlistStore } from './store/store.js'

declare module 'fastify' {
  interface FastifyInstance {
    store: WaitlistStore
  }
}

export interface AppOptions {
  /** false silences the logs (tests); default: the level in config. */
  logger?: boolean
  /** Where the built page lives; default dist/client. */
  pageRoot?: string
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.LOG_LEVEL },
    // Slow or stalled clients cannot hold a connection open for long.
    requestTimeout: 15_000,
    connectionTimeout: 15_000,
    return503OnClosing: true,
  })
  const store = await createStore(config)
  app.decorate('store', store)
  app.addHook('onClose', () => store.close())
  app.setErrorHandler(handleError)

  await app.register(security, { config })
  await app.register(waitlistRoutes, { prefix: '/rest/v1', config })
  await app.register(healthRoutes)
  await app.register(page, { root: options.pageRoot ?? clientDir })
  return app
}
