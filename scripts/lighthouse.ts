// `npm run lighthouse`: Lighthouse's mobile preset (its default: a mid-range phone on a slow 4G
// connection, simulated) against the built pages served by the real server, RUNS times each, each
// run in a fresh Chromium, the pages taking turns (so the machine's noise falls on all alike);
// prints the medians per page. LIGHTHOUSE_PATHS chooses the pages (default: `/` and `/de/`).
// Beside them, in the same turns and from the same server, a floor: a minimal page (one heading,
// one paragraph) written into the build for the sitting and removed after. What the floor scores
// is the machine, not the page: a noisy sitting shows in its numbers rather than in a verdict.
import * as chromeLauncher from 'chrome-launcher'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import lighthouse from 'lighthouse'
import { ensureBuild } from './ensure-build.mjs'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/chromium'
import { spawnServer } from '../tests/support/process'
import { tempSqlitePath } from '../tests/support/server'

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5)
const PAGES = (process.env.LIGHTHOUSE_PATHS ?? '/,/de/').split(',').map((path) => path.trim())
/** The floor page, served as a static file of the build while the sitting lasts. */
const FLOOR = '/lighthouse-floor.html'
const FLOOR_FILE = join(process.cwd(), 'dist', 'client', FLOOR.slice(1))
const PATHS = [...PAGES, FLOOR]
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const FLAGS = ['--headless=new', ...CHROMIUM_ARGS]

interface Run {
  scores: Record<(typeof CATEGORIES)[number], number>
  fcp: number
  lcp: number
  tbt: number
  cls: number
  totalBytes: number
  scriptBytes: number
  /** What Lighthouse names as the largest paint (its selector and text). */
  lcpElement: string
  failing: string[]
}

ensureBuild()
writeFileSync(
  FLOOR_FILE,
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Floor</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<meta name="description" content="The smallest page this server sends: what a sitting of Lighthouse measures on it is the machine.">
</head>
<body>
<h1>Floor</h1>
<p>One heading and one paragraph, served by the same server in the same sitting as the pages measured beside it.</p>
</body>
</html>
`,
)
const db = tempSqlitePath()
const server = await spawnServer({ SQLITE_PATH: db.path, LOG_LEVEL: 'info' })
const runsOf = new Map<string, Run[]>(PATHS.map((path) => [path, []]))
/** Runs Lighthouse could not measure (its own trace failed, e.g. NO_NAVSTART): done again, and said. */
const failedRuns: string[] = []
try {
  for (let i = 0; i < RUNS + 3 && PATHS.some((path) => (runsOf.get(path)?.length ?? 0) < RUNS); i++)
    for (const path of PATHS) {
      const runs = runsOf.get(path) ?? []
      if (runs.length < RUNS) await measure(path, runs, i)
    }
} finally {
  await server.stop('SIGTERM')
  db.cleanup()
  rmSync(FLOOR_FILE, { force: true })
}

/** One Lighthouse run of the page at `path`, added to `runs` (or said, when Lighthouse could not measure). */
async function measure(path: string, runs: Run[], attempt: number) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: FLAGS })
  try {
    const result = await lighthouse(`${server.url}${path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    })
    if (!result) throw new Error('Lighthouse returned no result')
    const { lhr } = result
    if (lhr.runtimeError) {
      failedRuns.push(`${path}: ${lhr.runtimeError.code}`)
      console.log(`${path} attempt ${attempt + 1}: no measurement (${lhr.runtimeError.code}), run again`)
      return
    }
    // LIGHTHOUSE_SAVE=dir keeps each run's report (JSON) for a closer look.
    if (process.env.LIGHTHOUSE_SAVE) {
      mkdirSync(process.env.LIGHTHOUSE_SAVE, { recursive: true })
      const name = path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'root'
      writeFileSync(join(process.env.LIGHTHOUSE_SAVE, `${name}-run-${runs.length + 1}.json`), JSON.stringify(lhr))
    }
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
      lcpElement: lcpElement(lhr.audits['largest-contentful-paint-element']?.details),
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
    const run = runs.at(-1)
    if (run) {
      console.log(
        `${path} run ${runs.length}/${RUNS}: scores ${CATEGORIES.map((c) => run.scores[c]).join('/')}, FCP ${Math.round(run.fcp)} ms, ` +
          `LCP ${Math.round(run.lcp)} ms, TBT ${Math.round(run.tbt)} ms, CLS ${run.cls.toFixed(3)}, largest paint: ${run.lcpElement}`,
      )
    }
  } finally {
    await chrome.kill()
  }
}

/** The largest paint's node as Lighthouse reports it (a table whose first item is the node). */
function lcpElement(details: unknown): string {
  type Node = { type?: string; selector?: string; nodeLabel?: string }
  const items = (details as { items?: { items?: { node?: Node }[]; node?: Node }[] } | undefined)?.items ?? []
  const node = items[0]?.node ?? items[0]?.items?.[0]?.node
  return node ? `${node.selector ?? '?'} ("${(node.nodeLabel ?? '').slice(0, 40)}")` : 'not reported'
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}
const cell = (value: string) => value.padStart(12)
const row = (name: string, values: string[], goal: string) =>
  `| ${name.padEnd(14)} |${values.map((v) => ` ${cell(v)} |`).join('')} ${goal.padEnd(10)} |`
const all = PATHS.map((path) => runsOf.get(path) ?? [])
const medians = (of: (run: Run) => number) => all.map((runs) => median(runs.map(of)))
console.log(`\nLighthouse, mobile preset, median of ${RUNS} runs per page (${new Date().toISOString().slice(0, 10)})\n`)
console.log(
  row(
    'metric',
    PATHS.map((path) => (path === FLOOR ? 'floor' : path)),
    'goal',
  ),
)
console.log(`|${'-'.repeat(16)}|${PATHS.map(() => '-'.repeat(14)).join('|')}|${'-'.repeat(12)}|`)
for (const category of CATEGORIES) console.log(row(category, medians((r) => r.scores[category]).map(String), '100'))
console.log(
  row(
    'FCP',
    medians((r) => r.fcp).map((v) => `${Math.round(v)} ms`),
    '',
  ),
)
console.log(
  row(
    'LCP',
    medians((r) => r.lcp).map((v) => `${Math.round(v)} ms`),
    '<= 1000 ms',
  ),
)
console.log(
  row(
    'TBT',
    medians((r) => r.tbt).map((v) => `${Math.round(v)} ms`),
    '<= 50 ms',
  ),
)
console.log(
  row(
    'CLS',
    medians((r) => r.cls).map((v) => v.toFixed(3)),
    '0',
  ),
)
console.log(
  row(
    'total bytes',
    medians((r) => r.totalBytes).map((v) => `${(v / 1024).toFixed(1)} KiB`),
    '',
  ),
)
console.log(
  row(
    'script bytes',
    medians((r) => r.scriptBytes).map((v) => `${(v / 1024).toFixed(1)} KiB`),
    '',
  ),
)
if (failedRuns.length > 0) console.log(`\nattempts Lighthouse could not measure, run again: ${failedRuns.join(', ')}`)
const failing = [...new Set(all.flatMap((runs, i) => runs.flatMap((r) => r.failing.map((f) => `${PATHS[i]} ${f}`))))]
if (failing.length > 0) console.log(`\naudits not at full score in some run: ${failing.join(', ')}`)

// The goals of docs/performance.md, on every page (the floor is no page of ours): every run at 100
// in every category, the medians within bounds.
const unmet = PAGES.flatMap((path, i) => {
  const runs = all[i] ?? []
  return [
    ...CATEGORIES.filter((c) => runs.some((r) => r.scores[c] < 100)).map((c) => `${c} below 100 in some run`),
    ...(median(runs.map((r) => r.lcp)) > 1000 ? ['LCP median above 1000 ms'] : []),
    ...(median(runs.map((r) => r.tbt)) > 50 ? ['TBT median above 50 ms'] : []),
    ...(runs.some((r) => r.cls > 0) ? ['a layout shift in some run'] : []),
    ...(runs.length < RUNS ? [`${RUNS - runs.length} run(s) gave no result`] : []),
  ].map((problem) => `${path}: ${problem}`)
})
console.log(unmet.length === 0 ? '\ngoals: all met' : `\ngoals not met: ${unmet.join('; ')}`)
if (unmet.length > 0) process.exitCode = 1
