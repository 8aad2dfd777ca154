// The runtime's end: a process whose SQLite statements are still alive when it ends must exit 0.
// better-sqlite3 12 on Node 24 aborted there (SIGABRT, exit 134: `node::RemoveEnvironmentCleanupHook`
// from `Statement::~Statement()`), so every short command and every stop of the server was a
// gamble; 13 does not. Each script below is a child process of the Node running the tests, run
// three times: the abort was seen in 2 or 3 runs of 3.
import { execFile, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { checkNodeVersion } from '../../scripts/node-version.mjs'
import { refuseStaleBuild, runCli } from '../support/process'

const dir = mkdtempSync(join(tmpdir(), 'kennect-runtime-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const RUNS = 3

// What every script starts with: better-sqlite3 and the built store, resolved from this checkout.
const prelude = `
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
const require = createRequire(${JSON.stringify(join(process.cwd(), 'package.json'))})
const Database = require('better-sqlite3')
const store = () => import(pathToFileURL(${JSON.stringify(join(process.cwd(), 'dist', 'server', 'store', 'index.js'))}).href)
const file = process.argv[2]
`

// What aborted is a statement finalised after its environment was gone: statements that lived long
// enough to leave V8's young generation, then were dropped and not yet collected when the process
// ended. So each script prepares batches of a thousand, keeps each batch a while, drops it, and
// ends with the last batch alive and nothing closed.
const BATCHES = `
const batches = (db, table) => {
  db.exec('CREATE TABLE IF NOT EXISTS ' + table + ' (id INTEGER PRIMARY KEY, v TEXT)')
  let kept = []
  for (let i = 0; i < 20000; i++) {
    kept.push(db.prepare('SELECT v FROM ' + table + ' WHERE id = ?'))
    if (kept.length === 1000 && i < 19000) kept = []
  }
  kept[0].get(1)
  return kept
}
`

const SCRIPTS: Record<string, { source: string; nodeArgs?: string[]; runs?: number }> = {
  'a file opened, 20,000 statements prepared in batches, the last thousand alive, never closed': {
    source: `${BATCHES}
const kept = batches(new Database(file), 't')
console.log('alive', kept.length)
`,
  },
  "the waitlist's own store: migrated, a sign-up added and read back, never closed": {
    source: `
const { createStore } = await store()
const waitlist = await createStore({ SQLITE_PATH: file }, { warn: () => undefined })
await waitlist.add({ email: 'ending@example.com', locale: 'en' })
console.log('count', await waitlist.count(), 'stats', (await waitlist.stats()).total)
process.exit(0)
`,
  },
  'the same in a worker thread, which ends on its own': {
    source: `
import { Worker } from 'node:worker_threads'
const worker = new Worker(
  \`const { parentPort, workerData } = require('node:worker_threads')
   const Database = require(workerData.module)
   ${BATCHES}
   parentPort.postMessage(batches(new Database(workerData.file), 'w').length)\`,
  { eval: true, workerData: { file, module: require.resolve('better-sqlite3') } },
)
worker.once('message', (count) => console.log('alive in the worker', count))
`,
  },
  '200,000 statements prepared and dropped under --expose-gc, the last thousand alive at the end': {
    nodeArgs: ['--expose-gc'],
    runs: 1,
    source: `
const db = new Database(file)
db.exec('CREATE TABLE IF NOT EXISTS g (id INTEGER PRIMARY KEY)')
let kept = []
for (let i = 0; i < 200000; i++) {
  kept.push(db.prepare('SELECT id FROM g WHERE id = ?'))
  if (kept.length === 1000 && i < 199000) { kept = []; if (i % 20000 === 19999) globalThis.gc() }
}
console.log('dropped and kept', kept.length)
`,
  },
}

async function runScript(name: string, source: string, nodeArgs: string[], run: number) {
  refuseStaleBuild()
  const script = join(dir, `${Object.keys(SCRIPTS).indexOf(name)}.mjs`)
  writeFileSync(script, prelude + source)
  const child = spawn(process.execPath, [...nodeArgs, script, join(dir, `run-${run}-${Date.now()}.db`)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null]
  return { code, signal, output }
}

describe(`ending a process with SQLite statements alive (Node ${process.version})`, () => {
  for (const [name, { source, nodeArgs = [], runs = RUNS }] of Object.entries(SCRIPTS)) {
    it(`exits 0: ${name}`, async () => {
      for (let run = 0; run < runs; run++) {
        const result = await runScript(name, source, nodeArgs, run)
        expect(result, `run ${run + 1} of ${runs}:\n${result.output}`).toMatchObject({ code: 0, signal: null })
        expect(result.output).not.toMatch(/Assertion failed|Aborted|FATAL/)
      }
    })
  }
})

describe('the command line ending on its own', () => {
  // The reproduction: the dry run printed its preview, then aborted in 15 of 20 runs.
  it('campaign create --dry-run exits 0, five times in a row', async () => {
    const markdown = join(dir, 'm.md')
    writeFileSync(markdown, 'Hello from Kennect.\n')
    for (let run = 0; run < 5; run++) {
      const { code, stdout, stderr } = await runCli(
        { SQLITE_PATH: join(dir, 'dry-run.db') },
        'campaign',
        'create',
        '--subject',
        'Hello',
        '--markdown-file',
        markdown,
        '--dry-run',
      )
      expect(code, stderr).toBe(0)
      expect(stdout).toContain('dry run')
    }
  })
})

describe('the Node version the commands need', () => {
  it('passes on the Node running the tests, and refuses an older one in one line naming both versions', () => {
    expect(checkNodeVersion(process.versions.node)).toBeUndefined()
    expect(checkNodeVersion('26.10.0')).toBeUndefined()
    const refusal = checkNodeVersion('20.20.2')
    expect(refusal).toMatch(/Node 24 or newer/)
    expect(refusal).toMatch(/20\.20\.2/)
    expect(refusal?.split('\n')).toHaveLength(1)
    expect(checkNodeVersion('22.22.0')).toMatch(/22\.22\.0/)
  })

  // Debian's own Node (20 on these machines) shows what a person with an old Node sees.
  const old = '/usr/bin/node'
  const oldVersion = (() => {
    try {
      return spawnVersion(old)
    } catch {
      return undefined
    }
  })()
  const isOld = oldVersion !== undefined && Number(oldVersion.split('.')[0]) < 24
  it.skipIf(!isOld)(`npm start, npm run waitlist and the build stop at once on Node ${oldVersion ?? '(none older here)'}`, async () => {
    for (const script of ['start.mjs', 'waitlist.mjs', 'build.mjs']) {
      const result = await promisify(execFile)(old, [join(process.cwd(), 'scripts', script), 'count'], {
        env: { PATH: process.env.PATH, SQLITE_PATH: join(dir, 'never.db') },
      }).then(
        () => ({ code: 0, stdout: '', stderr: '' }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      )
      expect(result.code, script).toBe(1)
      expect(result.stdout, script).toBe('')
      const lines = result.stderr.trim().split('\n')
      expect(lines, `${script}: ${result.stderr}`).toHaveLength(1)
      expect(lines[0]).toContain(`Node ${oldVersion}`)
      expect(lines[0]).toMatch(/Node 24 or newer/)
    }
  })
})

function spawnVersion(node: string): string {
  return execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim()
}
