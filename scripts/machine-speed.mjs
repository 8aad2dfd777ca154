// @ts-check
// One fixed reading of the machine's speed, printed by .ci/run before the tests, so that a run's
// time can be read against the machine it ran on (the same commit took 13 minutes one day and 23
// another). The work never changes with the code: brotli, SHA-256, JSON and a regular expression
// over the same generated 4 MiB, in this process alone, before anything else of the run is busy.
// `node scripts/machine-speed.mjs` prints one line: the median and the fastest of nine rounds, each on
// one core (the fastest is the least disturbed by anything else running).
import { createHash } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import { brotliCompressSync, constants } from 'node:zlib'

/** The same 4 MiB every time: JSON-like lines of words and numbers, from a fixed linear congruential sequence. */
function fixedText() {
  let seed = 20261201
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
  const words = ['breeder', 'owner', 'labrador', 'dam', 'stud', 'kennel', 'waitlist', 'confirmed', 'de', 'pl']
  const lines = []
  let size = 0
  while (size < 4 * 2 ** 20) {
    const line = JSON.stringify({
      id: next(),
      email: `${words[next() % 10]}${next()}@example.com`,
      role: words[next() % 10],
      n: next() % 1000,
    })
    lines.push(line)
    size += line.length + 1
  }
  return lines.join('\n')
}

/** @param {string} text @returns {number} the round's milliseconds */
function round(text) {
  const started = process.hrtime.bigint()
  brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
  for (let i = 0; i < 8; i++) createHash('sha256').update(text).digest()
  /** @type {{ email: string }[]} */
  const rows = text.split('\n').map((line) => JSON.parse(line))
  JSON.stringify(rows)
  let matched = 0
  for (const row of rows) if (/^[a-z]+\d+@example\.com$/.test(row.email)) matched++
  if (matched === 0) throw new Error('machine-speed: the fixed work matched nothing')
  return Number(process.hrtime.bigint() - started) / 1e6
}

const text = fixedText()
round(text) // warm: the first round compiles what the others run
const ROUNDS = 9
const times = Array.from({ length: ROUNDS }, () => round(text)).sort((a, b) => a - b)
const median = times[Math.floor(ROUNDS / 2)] ?? 0
const cpu = cpus()[0]?.model ?? 'an unknown CPU'
console.log(
  `machine: the fixed work took ${Math.round(median)} ms (median of ${ROUNDS}; fastest ${Math.round(times[0] ?? 0)}), ${cpus().length} cores of ${cpu}, load ${loadavg()[0]?.toFixed(2)}`,
)
