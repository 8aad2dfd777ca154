// axe-core in the page, as every browser test runs it: only violations are gathered in detail. The
// passes' and the incomplete checks' nodes are what no test reads, and gathering them was a third
// of a run's CPU on the landing page (2.3 to 3.0 s against 2.0 to 2.1 s, 4 runs each, same
// violations).
import AxeBuilder from '@axe-core/playwright'
import type { Page } from 'playwright-core'

type RunOptions = Parameters<AxeBuilder['options']>[0]

/** An axe run on the page; `options` (rules switched on or off) add to the violations-only one. */
export const axeOn = (page: Page, options: RunOptions = {}): AxeBuilder =>
  new AxeBuilder({ page }).options({ ...options, resultTypes: ['violations'] })
