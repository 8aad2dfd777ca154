// The secret offsets of the public figures (docs/public-figures.md): one per figure, derived from
// one secret of the deployment and the figure's key, so they are the same in every instance and
// after every restart, and no one without the secret can work one out. The secret is made by the
// first instance that needs it and kept in the store's settings; it is never sent anywhere.
import { createHmac, randomBytes } from 'node:crypto'
import { LAUNCH_CACHE_SECONDS } from '../../contract/growth.js'
import { offsetOf } from '../../contract/public-figures.js'
import type { SettingsStore } from '../store/types.js'

/** The settings row that holds the secret (64 hex digits). */
export const PUBLIC_FIGURES_SETTING = 'public_figures_key'
const SECRET_PATTERN = /^[0-9a-f]{64}$/

/** The key of each public figure: its offset is drawn from it, so a key never changes meaning. */
export const figureKey = {
  country: (country: string, role: 'breeders' | 'owners') => `country|${country}|${role}`,
  breed: (breed: string, country: string, side: 'studs' | 'dams' | 'seekers') => `breed|${breed}|${country}|${side}`,
  /** The landing page's total of who waits. */
  waiting: 'waiting',
} as const

/** Each figure's offset, by its key. */
export type Offsets = (key: string) => number

/** The offsets a secret gives: HMAC-SHA256(secret, key), its first 48 bits as a draw in (0, 1]. */
export function offsetsOf(secret: string): Offsets {
  const known = new Map<string, number>()
  return (key) => {
    let offset = known.get(key)
    if (offset === undefined) {
      const bits = createHmac('sha256', secret).update(key).digest().readUIntBE(0, 6)
      offset = offsetOf((bits + 1) / 2 ** 48)
      known.set(key, offset)
    }
    return offset
  }
}

export interface PublicFigures {
  /** The offsets, from the stored secret read at most once a minute (made and stored if there is none). */
  offsets(): Promise<Offsets>
}

const MAX_AGE_MS = LAUNCH_CACHE_SECONDS * 1000

export function createPublicFigures(settings: SettingsStore, now: () => number = Date.now): PublicFigures {
  let cached: { secret: string; offsets: Offsets; at: number } | undefined
  let reading: Promise<Offsets> | undefined
  const stored = async (): Promise<string | undefined> => {
    const value = await settings.read(PUBLIC_FIGURES_SETTING)
    return typeof value === 'string' && SECRET_PATTERN.test(value) ? value : undefined
  }
  async function read(): Promise<Offsets> {
    let secret = await stored()
    if (secret === undefined) {
      await settings.write(PUBLIC_FIGURES_SETTING, randomBytes(32).toString('hex'))
      // Read back: of two instances making it at once, the last write is everyone's by the next read.
      secret = await stored()
      if (secret === undefined) throw new Error('the public figures secret was written but cannot be read back')
    }
    // Read again every minute (so instances agree), but the same secret keeps its worked-out offsets.
    const offsets = cached?.secret === secret ? cached.offsets : offsetsOf(secret)
    cached = { secret, offsets, at: now() }
    return offsets
  }
  return {
    offsets: async () => {
      if (cached && now() - cached.at < MAX_AGE_MS) return cached.offsets
      reading ??= read()
        .catch((error: unknown) => {
          // The secret, once read, does not change: a store that fails now leaves the one held,
          // tried again in a minute. With none held yet, the caller hears of it.
          if (!cached) throw error
          cached = { ...cached, at: now() }
          return cached.offsets
        })
        .finally(() => (reading = undefined))
      return reading
    },
  }
}
