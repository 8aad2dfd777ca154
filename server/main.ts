// The server's entry point (what `npm start` runs). Node's compile cache is turned on before the
// server's modules load (some 770 files, ours and the dependencies'): a start that finds their
// compiled code cached spends less CPU loading them (docs/performance.md). Where the folder cannot
// be written, Node goes on without it.
import { enableCompileCache } from 'node:module'
import { compileCacheDir } from './paths.js'

enableCompileCache(compileCacheDir)
await import('./serve.js')
