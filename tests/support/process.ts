// The real entry points as child processes: the server (dist/server/main.js, what `npm start` runs)
// and the operators' command line (dist/server/operators/cli.js, what `npm run waitlist` runs).
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Env } from '../../server/config'
import { staleBuild } from '../../scripts/ensure-build.mjs'
import { OUTCOME_WAIT_MS } from './waits'

export const MAIN = join(process.cwd(), 'dist', 'server', 'main.js')
const CLI = join(process.cwd(), 'dist', 'server', 'operators', 'cli.js')

/** The operators' command line as built (what `npm run waitlist` runs), once the build is known to be current. */
export function builtCli(): string {
  refuseStaleBuild()
  return CLI
}

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

const run = promisify(execFile)

/**
 * These tests run the build: one older than a source would test old code without a word (and the
 * command line would rebuild first, writing to stderr). Checked once per process, said in one line.
 */
let builtFromSources: string | undefined | null = null
export function refuseStaleBuild(): void {
  builtFromSources ??= staleBuild() ?? undefined
  if (builtFromSources !== undefined)
    throw new Error(
      `dist/ is older than ${builtFromSources}: run \`npm run build\` first (these tests run the built server and command line)`,
    )
}

/** Runs one command of the command line with only PATH and `env`, and answers how it ended, a failure too. */
export async function runCli(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  const cli = builtCli() // refused outside the try: a stale build is no command's failure
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH, ...env } })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const { code, stdout, stderr } = error as CliResult
    return { code, stdout, stderr }
  }
}

export interface ServerProcess {
  url: string
  child: ChildProcess
  output: () => string
  /** Resolves when the process has printed a line matching the pattern. */
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<void>
  /** Sends the signal and resolves with the exit code (or the signal that ended it). */
  stop: (signal?: NodeJS.Signals) => Promise<number | NodeJS.Signals | null>
}

/** Without SMTP, mails are files: each process writes them in a temporary folder, not the checkout's data/. */
const mailDir = () => mkdtempSync(join(tmpdir(), 'kennect-mail-'))

function launch(env: Env, nodeArgs: string[] = []) {
  refuseStaleBuild()
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', MAIL_DIR: mailDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | NodeJS.Signals | null)
  return { child, exited, output: () => output }
}

export async function spawnServer(env: Env, timeoutMs = OUTCOME_WAIT_MS, nodeArgs: string[] = []): Promise<ServerProcess> {
  const { child, exited, output } = launch(env, nodeArgs)
  const url = await new Promise<string>((resolve, reject) => {
    // A server that never says it listens is stopped here: the test that gives up on it cannot.
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server ${child.pid} did not start:\n${output()}`))
    }, timeoutMs)
    const check = () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output())
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout?.on('data', check)
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`server exited before listening:\n${output()}`))
    })
  })
  return {
    url,
    child,
    output,
    waitForOutput: (pattern, waitMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no output matching ${pattern}:\n${output()}`)), waitMs)
        const check = () => {
          if (!pattern.test(output())) return
          clearTimeout(timer)
          child.stdout?.off('data', check)
          resolve()
        }
        child.stdout?.on('data', check)
        check()
      }),
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}

/**
 * Runs the entry point expecting it to exit by itself (a bad configuration, say). One that goes on
 * running (it took the configuration) is killed after `timeoutMs` and answers SIGKILL: the test
 * fails on its code, and leaves no server behind.
 */
export async function runToExit(env: Env, timeoutMs = OUTCOME_WAIT_MS): Promise<{ code: number | NodeJS.Signals | null; output: string }> {
  const { child, exited, output } = launch(env)
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const code = await exited
  clearTimeout(timer)
  return { code, output: output() }
}
