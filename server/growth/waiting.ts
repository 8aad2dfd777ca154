// How many confirmed sign-ups wait, for the landing page's hero (docs/decisions/015-growth.md):
// read from the store at most every MAX_AGE_MS (at once after a change this process made), and
// never allowed to hold a page: a page waits at most WAIT_MS for a fresh count, then is sent with
// the one it had. A store that fails leaves the last count (or none) and is logged once a minute.
import type { GrowthStore } from '../store/types.js'
import { type Warner, warnAtMostOnce } from './log-once.js'

/** How old the count may be: several instances each see another's changes this late. */
export const MAX_AGE_MS = 15_000
/** The longest a page waits for a fresh count. */
export const WAIT_MS = 250

export interface WaitingTotal {
  /** The count, as fresh as WAIT_MS allows; null when the store has not answered yet. */
  current(): Promise<number | null>
  /** A confirmation, an unsubscribe or a deletion here: the next page reads the count again. */
  changed(): void
}

export function createWaitingTotal(growth: GrowthStore, log: Warner, now: () => number = Date.now): WaitingTotal {
  const warn = warnAtMostOnce(log)
  let value: number | null = null
  let readAt = Number.NEGATIVE_INFINITY
  /** Bumped by every change here: a read that began before the latest change is not fresh. */
  let changes = 0
  let reading: { promise: Promise<void>; after: number } | undefined
  function refresh(): Promise<void> {
    if (reading && reading.after === changes) return reading.promise
    const after = changes
    const promise = growth.waiting().then(
      (count) => {
        value = count
        if (after === changes) readAt = now()
      },
      (error: unknown) => {
        // Tried: the next try waits MAX_AGE_MS, so pages are not held while the store is down.
        readAt = now()
        warn({ err: error }, 'waiting total not read: the store failed (the page shows its note)')
      },
    )
    const current = { promise, after }
    reading = current
    void promise.finally(() => {
      if (reading === current) reading = undefined
    })
    return promise
  }
  return {
    current: async () => {
      if (now() - readAt < MAX_AGE_MS) return value
      let timer: NodeJS.Timeout | undefined
      await Promise.race([refresh(), new Promise<void>((resolve) => (timer = setTimeout(resolve, WAIT_MS)))])
      clearTimeout(timer)
      return value
    },
    changed: () => {
      changes++
      readAt = Number.NEGATIVE_INFINITY
    },
  }
}
