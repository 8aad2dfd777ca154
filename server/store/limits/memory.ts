// Fixed-window counters for the per-IP limits and the admin lockout. The store provides them:
// in memory for SQLite (one process), in the database for PostgreSQL, so that several instances
// count together (DESIGN, Scale).
import type { WindowCount, WindowCounters } from '../types.js'

const CLOSED: WindowCount = { hits: 0, resetMs: 0 }

/**
 * Counters of one process. At most `maxKeys` windows are kept: when full, closed windows are
 * dropped, then the oldest, so a flood of addresses cannot grow the memory without bound.
 */
export function createMemoryCounters(options: { now?: () => number; maxKeys?: number } = {}): WindowCounters {
  // Date.now looked up at each call, not bound here: a clock set later (a test's) applies.
  const now = options.now ?? (() => Date.now())
  const maxKeys = options.maxKeys ?? 100_000
  const windows = new Map<string, { hits: number; endsAt: number }>()

  function makeRoom(time: number) {
    for (const [key, window] of windows) if (window.endsAt <= time) windows.delete(key)
    const oldest = windows.keys().next()
    if (windows.size >= maxKeys && !oldest.done) windows.delete(oldest.value)
  }

  return {
    hit: async (hits) => {
      const time = now()
      return hits.map(({ key, windowMs }) => {
        let window = windows.get(key)
        if (!window || window.endsAt <= time) {
          if (!window && windows.size >= maxKeys) makeRoom(time)
          window = { hits: 0, endsAt: time + windowMs }
          windows.set(key, window)
        }
        window.hits++
        return { hits: window.hits, resetMs: window.endsAt - time }
      })
    },
    peek: async (key) => {
      const time = now()
      const window = windows.get(key)
      return window && window.endsAt > time ? { hits: window.hits, resetMs: window.endsAt - time } : CLOSED
    },
    giveBack: async (keys) => {
      const time = now()
      for (const key of keys) {
        const window = windows.get(key)
        if (window && window.endsAt > time && window.hits > 0) window.hits--
      }
    },
  }
}
