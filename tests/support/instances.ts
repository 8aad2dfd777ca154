// Two server processes on one fresh PostgreSQL schema (DESIGN, Scale), for a describe block: started
// before its tests, each stopped after them and the schema dropped. A test sends its i-th request to
// `on(i)`, alternating between the two, as a load balancer would.
import { afterAll, beforeAll } from 'vitest'
import { createTestSchema, type TestDatabase } from './postgres'
import { startServer, type TestServer } from './server'

export function useTwoInstances(env: Record<string, string>) {
  let db: TestDatabase | undefined
  let instances: TestServer[] = []
  beforeAll(async () => {
    db = await createTestSchema()
    const onDb = { ...env, DATABASE_URL: db.url }
    instances = [await startServer(onDb, 'postgres'), await startServer(onDb, 'postgres')]
  })
  afterAll(async () => {
    for (const instance of instances) await instance.close()
    await db?.cleanup()
  })
  return {
    /** The schema, once made. */
    db: () => {
      if (!db) throw new Error('no database yet')
      return db
    },
    /** The two, once started. */
    instances: () => instances,
    /** The address of the instance that takes the i-th request. */
    on: (i: number) => {
      const instance = instances[i % instances.length]
      if (!instance) throw new Error('no instance')
      return instance.url
    },
  }
}
