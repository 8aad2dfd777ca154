// Figures computed off the request path: an answer that takes the store seconds to count at a
// million sign-ups (the most named breeds, a breed's demand map, the funnel) is counted once, kept,
// and answered from there; once older than its age it is answered as it is while one count runs
// behind it, and the answer says when it was counted (`countedAt`), so the view can say how fresh
// it is. While the store is small (`live`), every ask is counted afresh: exact, and quick.

/** How long a kept figure is answered before it is counted again. */
export const FIGURES_MAX_AGE_MS = 60_000
/** Below this many sign-ups every figure is counted when asked (a count of the rows takes milliseconds). */
export const COUNTED_LIVE_BELOW = 50_000

/** A kept answer older than this many ages is not given: its ask waits for the count. */
const STALE_AT_MOST = 5

export interface FigureCache<V> {
  /** The figures for a key: kept ones, or counted now when there are none yet. */
  get(key: string): Promise<V & { countedAt: string }>
  /** Everything kept is counted again at its next ask (a change the figures must show at once). */
  forget(): void
}

interface Entry<V> {
  value?: V & { countedAt: string }
  at: number
  counting?: Promise<V & { countedAt: string }>
}

export function createFigureCache<V>(
  count: (key: string) => Promise<V>,
  {
    maxAgeMs,
    maxKeys = 100,
    now = Date.now,
    live = () => false,
  }: { maxAgeMs: number; maxKeys?: number; now?: () => number; live?: () => boolean | Promise<boolean> },
): FigureCache<V> {
  const entries = new Map<string, Entry<V>>()
  let generation = 0
  const recount = (key: string, entry: Entry<V>) => {
    const mine = generation
    const started = now()
    entry.counting ??= count(key)
      .then((value) => {
        const counted = { ...value, countedAt: new Date(started).toISOString() }
        if (mine === generation) Object.assign(entry, { value: counted, at: started })
        return counted
      })
      .finally(() => (entry.counting = undefined))
    return entry.counting
  }
  return {
    get: async (key) => {
      if (await live()) {
        const countedAt = new Date(now()).toISOString()
        return { ...(await count(key)), countedAt }
      }
      let entry = entries.get(key)
      if (!entry) {
        // The least recently asked goes first when the cache is full.
        if (entries.size >= maxKeys) entries.delete(entries.keys().next().value ?? '')
        entries.set(key, (entry = { at: 0 }))
      } else {
        entries.delete(key)
        entries.set(key, entry)
      }
      const age = now() - entry.at
      // None yet, or older than STALE_AT_MOST ages (nobody asked for a while): counted now.
      if (entry.value === undefined || age >= STALE_AT_MOST * maxAgeMs) return recount(key, entry)
      // Stale: answered as it is, counted again behind it (a failed count keeps the old answer).
      if (age >= maxAgeMs) recount(key, entry).catch(() => undefined)
      return entry.value
    },
    forget: () => {
      generation += 1
      entries.clear()
    },
  }
}
