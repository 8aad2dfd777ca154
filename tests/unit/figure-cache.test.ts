import { describe, expect, it } from 'vitest'
import { createFigureCache } from '../../server/store/shared/figure-cache'

describe('the figure cache', () => {
  it('counts once, answers what it kept, and once stale answers that while it counts again', async () => {
    let clock = 1_000_000
    let counts = 0
    let release: (() => void) | undefined
    const cache = createFigureCache(
      async (key: string) => {
        counts += 1
        if (counts === 2) await new Promise<void>((resolve) => (release = resolve))
        return { key, n: counts }
      },
      { maxAgeMs: 60_000, now: () => clock },
    )
    expect(await cache.get('a')).toEqual({ key: 'a', n: 1, countedAt: new Date(1_000_000).toISOString() })
    clock += 30_000
    expect((await cache.get('a')).n).toBe(1)
    expect(counts).toBe(1)
    clock += 40_000
    // Stale: the old answer at once, one count behind it however often it is asked meanwhile.
    expect((await cache.get('a')).n).toBe(1)
    expect((await cache.get('a')).n).toBe(1)
    expect(counts).toBe(2)
    release?.()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(await cache.get('a')).toEqual({ key: 'a', n: 2, countedAt: new Date(1_070_000).toISOString() })
    cache.forget()
    expect((await cache.get('a')).n).toBe(3)
  })

  it('keeps at most its number of keys, the least recently asked going first', async () => {
    let counts = 0
    const cache = createFigureCache(async (key: string) => ({ key, n: ++counts }), { maxAgeMs: 60_000, maxKeys: 2 })
    await cache.get('a')
    await cache.get('b')
    await cache.get('a')
    await cache.get('c') // b goes
    expect((await cache.get('a')).n).toBe(1)
    expect((await cache.get('b')).n).toBe(4)
  })

  it('counts every ask afresh while the store is small, and keeps nothing', async () => {
    let counts = 0
    let small = true
    const cache = createFigureCache(async (key: string) => ({ key, n: ++counts }), { maxAgeMs: 60_000, live: () => small })
    expect((await cache.get('a')).n).toBe(1)
    expect((await cache.get('a')).n).toBe(2)
    small = false
    expect((await cache.get('a')).n).toBe(3)
    expect((await cache.get('a')).n).toBe(3)
  })

  it('keeps its answer when a count fails, and waits for a count once its answer is five ages old', async () => {
    let clock = 0
    let counts = 0
    let fail = false
    const cache = createFigureCache(
      async (key: string) => {
        counts += 1
        if (fail) throw new Error('the store is away')
        return { key, n: counts }
      },
      { maxAgeMs: 60_000, now: () => clock },
    )
    expect((await cache.get('a')).n).toBe(1)
    fail = true
    clock += 61_000
    expect((await cache.get('a')).n).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect((await cache.get('a')).n).toBe(1)
    fail = false
    clock += 5 * 60_000
    // Nobody asked for five minutes: this ask waits for a fresh count rather than take the old one.
    expect((await cache.get('a')).n).toBe(counts)
    expect(counts).toBeGreaterThanOrEqual(3)
  })
})
