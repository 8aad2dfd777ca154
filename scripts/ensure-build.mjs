// @ts-check
// Builds the page and the server when the build is missing or older than a source.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = fileURLToPath(new URL('..', import.meta.url))
const stamp = join(root, 'dist', '.build-stamp')
const sources = [
  'web',
  'server',
  'contract',
  'db',
  'scripts/build.mjs',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.server.json',
  'package.json',
]

/** @param {string} path @returns {number} */
function newest(path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))))
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
  if (built > 0 && Math.max(...sources.map((s) => newest(join(root, s)))) <= built) return
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
