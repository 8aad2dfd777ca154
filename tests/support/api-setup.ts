// Runs once before the API layer: PostgreSQL's suites need TEST_DATABASE_URL. Without it they are
// skipped, loudly; under CI, where .ci/run provides it, its absence is an error.
import type { TestProject } from 'vitest/node'
import { postgresAvailable } from './postgres'
import { makeTemplates } from './templates'

export default async function setup(project: TestProject) {
  const teardown = await makeTemplates((key, value) => project.provide(key, value))
  if (postgresAvailable) return teardown
  const banner = [
    '',
    '#'.repeat(78),
    '#  POSTGRESQL TESTS SKIPPED: TEST_DATABASE_URL is not set.',
    '#  Set it to a database the tests may create schemas in (see .ci/run).',
    '#'.repeat(78),
    '',
  ].join('\n')
  if (process.env.CI === 'true') throw new Error(`${banner}\nCI=true: the PostgreSQL layer is required.`)
  console.warn(banner)
  return teardown
}
