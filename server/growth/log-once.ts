// Trouble that repeats (a store that is down, asked on every page view) is logged once a minute,
// not once a request: the log stays readable and costs nothing while it lasts.

export interface Warner {
  warn: (details: object, message: string) => void
}

export const ONCE_A_MINUTE_MS = 60_000

/** A logger's `warn` that lets one line through per `everyMs`, and says how many it held back. */
export function warnAtMostOnce(log: Warner, everyMs = ONCE_A_MINUTE_MS, now: () => number = Date.now) {
  let last = Number.NEGATIVE_INFINITY
  let held = 0
  return (details: object, message: string) => {
    const time = now()
    if (time - last < everyMs) {
      held++
      return
    }
    last = time
    log.warn(held > 0 ? { ...details, heldBack: held } : details, message)
    held = 0
  }
}
