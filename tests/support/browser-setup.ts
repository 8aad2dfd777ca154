// Runs once before the browser layer: says loudly when Chromium is missing, and fails under CI,
// where the layer is required (.ci/run installs Debian's chromium).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { CHROMIUM_PATH, chromiumAvailable } from './chromium'
import { makeTemplates } from './templates'

export default async function setup(project: TestProject) {
  if (!existsSync(join(process.cwd(), 'dist', 'client', 'index.html'))) {
    throw new Error('The browser tests need the built page: run `npm run build` first (`npm test` does).')
  }
  if (chromiumAvailable) return makeTemplates((key, value) => project.provide(key, value))
  const banner = [
    '',
    '#'.repeat(78),
    `#  BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM_PATH}.`,
    '#  Install it with `apt-get install chromium` (or set CHROMIUM_PATH).',
    '#'.repeat(78),
    '',
  ].join('\n')
  if (process.env.CI === 'true') throw new Error(`${banner}\nCI=true: the browser layer is required.`)
  console.warn(banner)
  return makeTemplates((key, value) => project.provide(key, value))
}
