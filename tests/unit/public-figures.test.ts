// What the public sees of a count (docs/public-figures.md): the band, after the figure's secret
// offset; the offsets' law; and what that law leaves an attacker who has found a figure's edge.
import { describe, expect, it } from 'vitest'
import { isPubliclyReady, MAX_OFFSET, OFFSET_RATIO, offsetOf, publicBand, publicFigure } from '../../contract/public-figures'
import { figureKey, offsetsOf } from '../../server/growth/public-figures'

describe('publicBand', () => {
  it('hides what is under 10, then says 10+, 20+, 50+, 100+ and each hundred', () => {
    const bands = [0, 1, 9, 10, 19, 20, 49, 50, 99, 100, 199, 200, 249, 250, 1249, 10_001].map(publicBand)
    expect(bands).toEqual([null, null, null, 10, 10, 20, 20, 50, 50, 100, 100, 200, 200, 200, 1200, 10_000])
    expect([-5, Number.NaN].map(publicBand)).toEqual([null, null])
  })

  it('never says more than there is, and never less as the count grows', () => {
    let previous: number | null = null
    for (let n = 0; n <= 2000; n++) {
      const band = publicBand(n)
      if (band !== null) expect(band).toBeLessThanOrEqual(n)
      expect(band ?? 0).toBeGreaterThanOrEqual(previous ?? 0)
      previous = band
    }
  })
})

describe('publicFigure and isPubliclyReady', () => {
  it('bands the count less its offset', () => {
    expect(publicFigure(12, 0)).toBe(10)
    expect(publicFigure(12, 3)).toBeNull()
    expect(publicFigure(25, 5)).toBe(20)
    expect(publicFigure(25, 6)).toBe(10)
  })

  it('is ready only where every side shows and, less its offset, meets its target', () => {
    expect(
      isPubliclyReady([
        { count: 25, offset: 5, target: 20 },
        { count: 30, offset: 0, target: 20 },
      ]),
    ).toBe(true)
    expect(
      isPubliclyReady([
        { count: 25, offset: 6, target: 20 },
        { count: 30, offset: 0, target: 20 },
      ]),
    ).toBe(false)
    // A target under 10 met is not said while the figure does not show: it would say "at least 3".
    expect(isPubliclyReady([{ count: 9, offset: 0, target: 3 }])).toBe(false)
    expect(isPubliclyReady([{ count: 12, offset: 2, target: 3 }])).toBe(true)
  })
})

describe('the offsets', () => {
  it('follow a geometric law: each value 0.9 times as likely as the one below, none above MAX_OFFSET', () => {
    expect(offsetOf(1)).toBe(0)
    expect(offsetOf(0.9000001)).toBe(0)
    expect(offsetOf(0.8999999)).toBe(1)
    expect(offsetOf(Number.MIN_VALUE)).toBe(MAX_OFFSET)
    expect(() => offsetOf(0)).toThrow(RangeError)
    expect(() => offsetOf(1.5)).toThrow(RangeError)

    const offsets = offsetsOf('a'.repeat(64))
    const drawn = Array.from({ length: 20_000 }, (_, i) => offsets(figureKey.breed(`breed-${i}`, 'DE', 'studs')))
    const share = (test: (o: number) => boolean) => drawn.filter(test).length / drawn.length
    expect(share((o) => o === 0)).toBeCloseTo(1 - OFFSET_RATIO, 1)
    expect(share((o) => o >= 10)).toBeCloseTo(OFFSET_RATIO ** 10, 1)
    expect(drawn.reduce((sum, o) => sum + o, 0) / drawn.length).toBeGreaterThan(8)
    expect(drawn.reduce((sum, o) => sum + o, 0) / drawn.length).toBeLessThan(10)
    expect(Math.max(...drawn)).toBeLessThanOrEqual(MAX_OFFSET)
  })

  it('are the same for the same secret and key, and unrelated for another secret', () => {
    const key = figureKey.country('IE', 'breeders')
    expect(offsetsOf('b'.repeat(64))(key)).toBe(offsetsOf('b'.repeat(64))(key))
    const keys = Array.from({ length: 200 }, (_, i) => figureKey.breed('pug', 'FR', 'dams') + i)
    const one = offsetsOf('c'.repeat(64))
    const other = offsetsOf('d'.repeat(64))
    expect(keys.filter((k) => one(k) === other(k)).length).toBeLessThan(60)
  })

  it("leave an attacker who found a figure's edge at most a one-in-ten guess of any count, whatever they saw", () => {
    // The edge says count − offset = seen (the same for every band and for "ready"; watched over
    // time it says how the count moved, not where it started). With every count equally likely
    // beforehand, how likely is each afterwards? The law has no memory: being told the offset is
    // at least k (the count is not negative) leaves the same law above k. Only an offset near
    // the top, where the law stops, says more.
    const law = (offset: number) =>
      offset < MAX_OFFSET ? (1 - OFFSET_RATIO) * OFFSET_RATIO ** offset : offset === MAX_OFFSET ? OFFSET_RATIO ** MAX_OFFSET : 0
    const guess = (seen: number) => {
      const weights = Array.from({ length: 600 }, (_, count) => law(count - seen))
      return Math.max(...weights) / weights.reduce((sum, w) => sum + w, 0)
    }
    const nearTop = MAX_OFFSET - 22
    for (let seen = -nearTop; seen <= 100; seen++) expect(guess(seen), `count − offset = ${seen}`).toBeLessThan(1 - OFFSET_RATIO + 0.005)
    expect(guess(-MAX_OFFSET)).toBe(1) // the top: count 0, known
    // How often a figure's offset is that near the top: one in a hundred million.
    expect(OFFSET_RATIO ** nearTop).toBeLessThan(1e-8)
  })
})
