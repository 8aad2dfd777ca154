// `npm run lighthouse`: Lighthouse's mobile preset (its default: a mid-range phone on a slow 4G
// connection, simulated) against the built page served by the real server, RUNS times, each in a
// fresh Chromium; prints the medians.
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { ensureBuild } from './ensure-build.mjs'
import { CHROMIUM_PATH } from '../tests/support/chromium'
import { spawnServer } from '../tests/support/process'
import { tempSqlitePath } from '../tests/support/server'

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5)
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

interface Run {
  scores: Record<(typeof CATEGORIES)[number], number>
  fcp: number
  lcp: number
  tbt: number
  cls: number
  totalBytes: number
  scriptBytes: number
  failing: string[]
}

ensureBuild()
const db = tempSqlitePath()
const server = await spawnServer({ SQLITE_PATH: db.path, LOG_LEVEL: 'info' })
const runs: Run[] = []
try {
  for (let i = 0; i < RUNS; i++) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: FLAGS })
    try {
      const result = await lighthouse(`${server.url}/`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
      })
      if (!result) throw new Error('Lighthouse returned no result')
      const { lhr } = result
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
      const resources =
        (lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? []
      runs.push({
        scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Run['scores'],
        fcp: audit('first-contentful-paint'),
        lcp: audit('largest-contentful-paint'),
        tbt: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
        totalBytes: audit('total-byte-weight'),
        scriptBytes: resources.find((r) => r.resourceType === 'script')?.transferSize ?? 0,
        failing: Object.values(lhr.audits)
          .filter(
            (a) =>
              a.score !== null &&
              a.score < 1 &&
              a.scoreDisplayMode !== 'informative' &&
              a.scoreDisplayMode !== 'manual' &&
              a.scoreDisplayMode !== 'notApplicable',
          )
          .map((a) => `${a.id} (${a.score})`),
      })
      console.log(`run ${i + 1}/${RUNS}: performance ${runs.at(-1)?.scores.performance}, LCP ${Math.round(runs.at(-1)?.lcp ?? 0)} ms`)
    } finally {
      await chrome.kill()
    }
  }
} finally {
  await server.stop('SIGTERM')
  db.cleanup()
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}
const row = (name: string, value: string, goal: string) => `| ${name.padEnd(22)} | ${value.padStart(10)} | ${goal.padEnd(10)} |`
console.log(
  `\nLighthouse ${lighthouse.name ? '' : ''}mobile preset, median of ${runs.length} runs (${new Date().toISOString().slice(0, 10)})\n`,
)
console.log(row('metric', 'median', 'goal'))
console.log(`|${'-'.repeat(24)}|${'-'.repeat(12)}|${'-'.repeat(12)}|`)
for (const category of CATEGORIES) console.log(row(category, String(median(runs.map((r) => r.scores[category]))), '100'))
console.log(row('FCP', `${Math.round(median(runs.map((r) => r.fcp)))} ms`, ''))
console.log(row('LCP', `${Math.round(median(runs.map((r) => r.lcp)))} ms`, '<= 1200 ms'))
console.log(row('TBT', `${Math.round(median(runs.map((r) => r.tbt)))} ms`, ''))
console.log(row('CLS', median(runs.map((r) => r.cls)).toFixed(3), '0'))
console.log(row('total bytes', `${(median(runs.map((r) => r.totalBytes)) / 1024).toFixed(1)} KiB`, ''))
console.log(row('script bytes', `${(median(runs.map((r) => r.scriptBytes)) / 1024).toFixed(1)} KiB`, ''))
const failing = [...new Set(runs.flatMap((r) => r.failing))]
if (failing.length > 0) console.log(`\naudits not at full score in some run: ${failing.join(', ')}`)
