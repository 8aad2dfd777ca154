// @ts-check
// `npm run waitlist -- <command>`: builds if needed, then runs the operators' command line.
import './node-version.mjs' // first: an older Node stops here, in one line
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ensureBuild, root } from './ensure-build.mjs'

ensureBuild()
if (existsSync(join(root, '.env'))) process.loadEnvFile(join(root, '.env'))
await import(pathToFileURL(join(root, 'dist', 'server', 'operators', 'cli.js')).href)
