// What the public sees of any count (docs/public-figures.md): /api/launch, the visitor's page and
// the landing page show a count only as the band it falls in (10+, 20+, 50+, 100+, then each
// hundred), after a secret offset fixed per figure is taken off, so that an edge (a figure
// appearing, a band changing, "ready") sits where no one can place it, not at a known number.
// The team sees exact counts. Types, constants and pure checks; this folder imports nothing but itself.

export type { PublicCountryMeter } from './growth.js'

/** No figure is shown under this: it would point at people. */
export const PUBLIC_MIN = 10
/** The bands' lower bounds up to the hundreds; from there, each hundred is one. */
export const PUBLIC_BANDS = [10, 20, 50, 100] as const
const HUNDRED = 100

/**
 * The lower bound of the band a number falls in (10, 20, 50, 100, 200, 300…), or null under
 * PUBLIC_MIN. Always at most the number: a band says "at least", never more than there is.
 */
export function publicBand(n: number): number | null {
  if (!(n >= PUBLIC_MIN)) return null
  if (n >= HUNDRED) return Math.floor(n / HUNDRED) * HUNDRED
  return PUBLIC_BANDS.findLast((band) => n >= band) ?? null
}

/**
 * A figure's secret offset is drawn once (from the deployment's secret and the figure's key) from
 * a geometric law: each value OFFSET_RATIO times as likely as the one below it (0 one time in ten,
 * a mean of 9, over 30 one time in 25), never above MAX_OFFSET. That it has no top within reach is
 * the point: an edge tells count − offset, and a law with no memory leaves any count that is
 * possible at most one chance in ten, however the edge was found or watched
 * (docs/public-figures.md#why-a-geometric-offset). The top is reached one time in a billion.
 */
export const OFFSET_RATIO = 0.9
export const MAX_OFFSET = 199

/** The offset for `u`, a uniform draw in (0, 1]. */
export function offsetOf(u: number): number {
  if (!(u > 0 && u <= 1)) throw new RangeError(`expected a draw in (0, 1], got ${u}`)
  return Math.max(0, Math.min(MAX_OFFSET, Math.floor(Math.log(u) / Math.log(OFFSET_RATIO))))
}

/** A count as the public sees it: the band of the count less its figure's offset; null, "too few to show yet". */
export const publicFigure = (count: number, offset: number): number | null => publicBand(count - offset)

/** One side of a public "ready": the exact count, its figure's offset, and the target. */
export interface ReadySide {
  count: number
  offset: number
  target: number
}

/**
 * Ready as the public may see it: every side shown and, less its offset, at its target. The same
 * edge as the figure's bands (count − offset), so "ready" tells no more than the figures do; it
 * may come a little later than the team's (exact) ready.
 */
export const isPubliclyReady = (sides: readonly ReadySide[]): boolean =>
  sides.every((side) => publicFigure(side.count, side.offset) !== null && side.count - side.offset >= side.target)

/**
 * How full a meter's bar is drawn, in percent: from the figure shown (0 when none), never the exact
 * count, whose width would tell it. The visitor's page and a partner's embed draw the same bars.
 */
export const barPercent = (figure: number | null, target: number): number =>
  target === 0 ? 100 : Math.min(100, Math.round(((figure ?? 0) / target) * 100))
