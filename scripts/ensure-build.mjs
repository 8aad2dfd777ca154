// @ts-check
// Builds the page and the server when the build is missing or older than a source.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = fileURLToPath(new URL('..', import.meta.url))
/** @param {string} at a checkout */
const stampOf = (at) => join(at, 'dist', '.build-stamp')
const stamp = stampOf(root)
const sources = [
  'web',
  'server',
  'contract',
  'locales',
  'db',
  'scripts/build.mjs',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.server.json',
  'package.json',
]

/**
 * The most recently changed file under a path, and when.
 * @param {string} path @returns {{ path: string, mtimeMs: number }}
 */
function newest(path) {
  if (!existsSync(path)) return { path, mtimeMs: 0 }
  const stat = statSync(path)
  if (!stat.isDirectory()) return { path, mtimeMs: stat.mtimeMs }
  return readdirSync(path)
    .map((name) => newest(join(path, name)))
    .reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a), { path, mtimeMs: 0 })
}

/**
 * The build's age against its sources: undefined while dist/ is as new as every source, else the
 * source changed since (relative to the checkout), or 'dist/' when there is no build at all.
 * @param {string} at the checkout (this one unless told)
 * @returns {string | undefined}
 */
export function staleBuild(at = root) {
  const built = existsSync(stampOf(at)) ? statSync(stampOf(at)).mtimeMs : 0
  if (built === 0) return 'dist/'
  const changed = sources.map((s) => newest(join(at, s))).reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a))
  return changed.mtimeMs > built ? relative(at, changed.path) : undefined
}

export function ensureBuild() {
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0
  if (built === 0 && !existsSync(join(root, 'node_modules'))) {
    console.error('The dependencies are not installed yet: run `npm install` first, then `npm start`.')
    process.exit(1)
  }
  const canBuild = existsSync(join(root, 'node_modules', 'vite'))
  // A production install (`npm ci --omit=dev`) runs the build it was given: copying it there
  // makes every file look newer than the build, and there is nothing to rebuild with anyway.
  if (built > 0 && !canBuild) return
  if (built > 0 && staleBuild() === undefined) return
  if (!canBuild) {
    console.error('There is no build in dist/, and the build tools are not installed (npm ci --omit=dev).')
    console.error('Build where every dependency is installed (`npm install && npm run build`), then install for production.')
    process.exit(1)
  }
  console.error('Building the page and the server…') // stderr: standard output may be an export
  // Always the production build, whoever asks: under a test runner (NODE_ENV=test) Vite would
  // otherwise bundle React's development build (149 KB gzipped instead of 74, measured).
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
    stdio: ['ignore', 2, 2],
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
