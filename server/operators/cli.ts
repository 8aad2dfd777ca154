// The operators' command line's entry point (what `npm run waitlist` runs); the commands are in
// cli-commands.ts. The compile cache is turned on first, as in the server's entry (server/main.ts):
// a command loads a few hundred modules, and with their compiled code cached it starts sooner.
import { enableCompileCache } from 'node:module'
import { compileCacheDir } from '../paths.js'

enableCompileCache(compileCacheDir)
await import('./cli-commands.js')
