// A PostgreSQL server of the test's own (initdb into a temporary folder), for tests that stop and
// start the database: stopping the shared one would pull it from under the other suites.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './ports'

const BIN = '/usr/lib/postgresql/15/bin'
const isRoot = process.getuid?.() === 0
export const privatePostgresAvailable = existsSync(join(BIN, 'initdb')) && (!isRoot || existsSync('/usr/sbin/runuser'))

/** PostgreSQL refuses to run as root: as root, run its tools as the `postgres` user. */
function run(tool: string, args: string[]): void {
  const command = join(BIN, tool)
  if (isRoot) execFileSync('/usr/sbin/runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' })
  else execFileSync(command, args, { stdio: 'pipe' })
}

export interface PrivatePostgres {
  url: string
  start: () => void
  stop: () => void
  destroy: () => void
}

export async function createPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'kennect-pg-'))
  chmodSync(dir, 0o777) // the postgres user writes here when the tests run as root
  const data = join(dir, 'data')
  const port = await freePort()
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'kennect', '--no-sync'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`
  let running = false
  const instance: PrivatePostgres = {
    url: `postgres://kennect@127.0.0.1:${port}/postgres`,
    start: () => {
      run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'])
      running = true
    },
    stop: () => {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
      running = false
    },
    destroy: () => {
      if (running) instance.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  instance.start()
  return instance
}
