import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder holding package.json, whether this runs from server/ (tests) or dist/server/ (built). */
function findProjectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('cannot find the project root (no package.json above the server)')
    dir = parent
  }
  return dir
}

export const projectRoot = findProjectRoot()
export const clientDir = join(projectRoot, 'dist', 'client')
/** The visitor's pages: the build's render module and its shell. */
export const visitorDir = join(projectRoot, 'dist', 'visitor')
export const migrationsDir = (dialect: 'sqlite' | 'postgres') => join(projectRoot, 'db', dialect)
/** What the build wrote for the server to say in the landing page's slots (server/http/landing-page.ts). */
export const landingWordsPath = join(projectRoot, 'dist', 'landing.json')
/**
 * Node's compile cache for the server's and the command line's modules (server/main.ts): the
 * project's own, where tools keep their caches, not a temporary folder other users share.
 * NODE_COMPILE_CACHE, when set, chooses another.
 */
export const compileCacheDir = join(projectRoot, 'node_modules', '.cache', 'kennect-compile')
