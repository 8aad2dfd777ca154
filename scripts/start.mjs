// @ts-check
// `npm start`: build the page and the server when a source is newer than the last build, then
// run the server (dist/server/main.js), which reads its configuration from the environment.
import './node-version.mjs' // first: an older Node stops here, in one line
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ensureBuild, root } from './ensure-build.mjs'

ensureBuild()

// A local .env (see .env.example) fills in variables the environment does not already set.
if (existsSync(join(root, '.env'))) process.loadEnvFile(join(root, '.env'))

await import(pathToFileURL(join(root, 'dist', 'server', 'main.js')).href)
