// @ts-check
// `npm start`: build the page and the server when a source is newer than the last build, then
// run the server (dist/server/main.js), which reads its configuration from the environment.
// package.json starts Node with --max-semi-space-size=16 (MB): on a machine with memory to spare V8
// grows the young generation to 134 MB while an import runs, and with the flag it stays at 34
// (docs/performance.md, "Importing a club's list": +177 to +205 MB of memory without it, +121 to
// +128 with it). The benchmarks start the server with the same flags (bench/probed-server.ts).
import './node-version.mjs' // first: an older Node stops here, in one line
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ensureBuild, root } from './ensure-build.mjs'

ensureBuild()

// A local .env (see .env.example) fills in variables the environment does not already set.
if (existsSync(join(root, '.env'))) process.loadEnvFile(join(root, '.env'))

await import(pathToFileURL(join(root, 'dist', 'server', 'main.js')).href)
