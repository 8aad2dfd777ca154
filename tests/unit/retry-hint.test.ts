// The hint of every 429 the server answers (the PostgREST insert's rate limit, the admin lockout,
// sign-in links, webhook tests, the app's claims): English, its noun agreeing with the number, and
// the same number as `Retry-After`.
import { describe, expect, it } from 'vitest'
import { retryHint, tooMany } from '../../server/http/errors'
import { postgrestErrors } from '../../server/waitlist/postgrest-errors'

describe('a 429 says when to retry', () => {
  it('says "1 second" and "2 seconds", never "1 seconds"', () => {
    expect(retryHint(1)).toBe('Retry after 1 second')
    expect(retryHint(2)).toBe('Retry after 2 seconds')
    expect(postgrestErrors.rateLimited(1).hint).toBe('Retry after 1 second')
  })

  it('rounds what is left of the window up to whole seconds, at least one, in the hint and the header alike', () => {
    for (const [resetMs, seconds] of [
      [0, 1],
      [400, 1],
      [1000, 1],
      [1001, 2],
      [59_500, 60],
    ] as const) {
      const error = tooMany('too_many_attempts', 'Too many attempts', resetMs)
      expect(error.status).toBe(429)
      expect(error.headers['retry-after']).toBe(String(seconds))
      expect(error.hint).toBe(retryHint(seconds))
    }
  })
})
