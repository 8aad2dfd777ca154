// Runs once before the API layer: PostgreSQL's suites need TEST_DATABASE_URL. Without it they are
// skipped, loudly; under CI, where .ci/run provides it, its absence is an error.
import { postgresAvailable } from './postgres'

export default function setup() {
  if (postgresAvailable) return
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
}
