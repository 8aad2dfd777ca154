// The launch meters as both stores work them out: each country's confirmed, subscribed breeders
// and owners against its target (contract/growth.ts), and the targets kept as one setting.
import {
  checkLaunchTargets,
  type CountryMeter,
  DEFAULT_LAUNCH_TARGETS,
  isReady,
  type LaunchTargets,
  targetFor,
} from '../../../contract/growth.js'
import type { CountryCode } from '../../../contract/countries.js'
import type { CountryCount } from '../types.js'
import { byCode } from '../../../contract/order.js'

/** The settings row that holds the launch targets. */
export const LAUNCH_TARGETS_KEY = 'launch_targets'

/** The stored targets, or the defaults when none are set (or the row was edited into something else). */
export function storedTargets(value: unknown): LaunchTargets {
  if (value === undefined || value === null) return DEFAULT_LAUNCH_TARGETS
  const checked = checkLaunchTargets(typeof value === 'string' ? JSON.parse(value) : value)
  return checked.ok ? checked.targets : DEFAULT_LAUNCH_TARGETS
}

/** Every counted country's meter, the readiest first: ready ones, then by how full the fuller-behind side is. */
export function metersOf(counts: readonly CountryCount[], targets: LaunchTargets): CountryMeter[] {
  const fill = (have: number, want: number) => (want === 0 ? 1 : Math.min(1, have / want))
  return counts
    .map((count) => {
      const target = targetFor(targets, count.country)
      const meter = { breeders: count.breeders, owners: count.owners }
      return { country: count.country as CountryCode, ...meter, target, ready: isReady(meter, target) }
    })
    .sort(
      (a, b) =>
        Number(b.ready) - Number(a.ready) ||
        Math.min(fill(b.breeders, b.target.breeders), fill(b.owners, b.target.owners)) -
          Math.min(fill(a.breeders, a.target.breeders), fill(a.owners, a.target.owners)) ||
        byCode(a.country, b.country),
    )
}

/** The countries whose meters are full. */
export const readyCountries = (counts: readonly CountryCount[], targets: LaunchTargets): string[] =>
  metersOf(counts, targets)
    .filter((meter) => meter.ready)
    .map((meter) => meter.country)
