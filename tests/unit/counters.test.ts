import { describe, expect, it } from 'vitest'
import { clientKey } from '../../server/waitlist/client-key'
import { createMemoryCounters } from '../../server/store/limits/memory'

describe('createMemoryCounters', () => {
  it('counts hits in a window that opens at the first hit, and starts again once it closes', async () => {
    let time = 1_000
    const counters = createMemoryCounters({ now: () => time })
    expect(
      await counters.hit([
        { key: 'a', windowMs: 100 },
        { key: 'b', windowMs: 1000 },
      ]),
    ).toEqual([
      { hits: 1, resetMs: 100 },
      { hits: 1, resetMs: 1000 },
    ])
    time += 60
    expect(await counters.hit([{ key: 'a', windowMs: 100 }])).toEqual([{ hits: 2, resetMs: 40 }])
    expect(await counters.peek('a')).toEqual({ hits: 2, resetMs: 40 })
    time += 40
    expect(await counters.peek('a')).toEqual({ hits: 0, resetMs: 0 })
    expect(await counters.hit([{ key: 'a', windowMs: 100 }])).toEqual([{ hits: 1, resetMs: 100 }])
  })

  it('gives a hit back to an open window only, never below 0', async () => {
    let time = 0
    const counters = createMemoryCounters({ now: () => time })
    await counters.hit([{ key: 'a', windowMs: 100 }])
    await counters.hit([{ key: 'a', windowMs: 100 }])
    await counters.giveBack(['a', 'none'])
    expect(await counters.peek('a')).toEqual({ hits: 1, resetMs: 100 })
    await counters.giveBack(['a'])
    await counters.giveBack(['a'])
    expect(await counters.peek('a')).toEqual({ hits: 0, resetMs: 100 })
    expect(await counters.peek('none')).toEqual({ hits: 0, resetMs: 0 })
    time = 100
    await counters.giveBack(['a'])
    expect(await counters.hit([{ key: 'a', windowMs: 100 }])).toEqual([{ hits: 1, resetMs: 100 }])
  })

  it('keeps at most maxKeys windows: closed ones go first, then the oldest', async () => {
    let time = 0
    const counters = createMemoryCounters({ now: () => time, maxKeys: 2 })
    await counters.hit([{ key: 'short', windowMs: 10 }])
    await counters.hit([{ key: 'long', windowMs: 1000 }])
    time = 20
    await counters.hit([{ key: 'new', windowMs: 1000 }])
    expect((await counters.peek('long')).hits).toBe(1) // the closed window made room
    await counters.hit([{ key: 'newer', windowMs: 1000 }])
    expect((await counters.peek('long')).hits).toBe(0) // then the oldest
    expect((await counters.peek('newer')).hits).toBe(1)
  })
})

describe('clientKey', () => {
  it('counts an IPv6 client per /64, whatever the spelling', () => {
    const key = clientKey('2001:db8:1:2::a')
    expect(key).toBe('2001:db8:1:2::/64')
    for (const ip of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0000:0000:0000:0001']) expect(clientKey(ip)).toBe(key)
    expect(clientKey('2001:db8:1:3::1')).not.toBe(key)
  })

  it('takes an IPv4-mapped address for the IPv4 client it is', () => {
    expect(clientKey('::ffff:203.0.113.5')).toBe('203.0.113.5')
    expect(clientKey('::ffff:cb00:7105')).toBe('203.0.113.5')
    expect(clientKey('203.0.113.5')).toBe('203.0.113.5')
  })
})
