// The public figures' secret as a test chooses it (docs/public-figures.md): one whose offsets for
// the figures a test reads fit what it needs, written to the store before the server reads it.
import { randomBytes } from 'node:crypto'
import { offsetsOf, type Offsets, PUBLIC_FIGURES_SETTING } from '../../server/growth/public-figures'
import type { TestServer } from './server'

/** A secret whose offset for each key passes its check (found by drawing: keep the checks likely). */
export function secretWhere(checks: Record<string, (offset: number) => boolean>): { secret: string; offsets: Offsets } {
  for (let tries = 0; tries < 1_000_000; tries++) {
    const secret = randomBytes(32).toString('hex')
    const offsets = offsetsOf(secret)
    if (Object.entries(checks).every(([key, check]) => check(offsets(key)))) return { secret, offsets }
  }
  throw new Error('no secret found: the checks are too unlikely together')
}

/** Writes such a secret for the server: call it before anything public is read (the server keeps it a minute). */
export async function useSecretWhere(server: TestServer, checks: Record<string, (offset: number) => boolean>): Promise<Offsets> {
  const { secret, offsets } = secretWhere(checks)
  await server.app.store.settings.write(PUBLIC_FIGURES_SETTING, secret)
  return offsets
}
