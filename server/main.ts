// The server's entry point (what `npm start` runs). Node's compile cache is turned on before the
// server's modules load: they are ~1,200 files (ours and the dependencies'), and a start that
// finds their compiled code cached spends about a third less CPU loading them (docs/performance.md).
// The cache lives in the system's temporary folder (or NODE_COMPILE_CACHE); where it cannot be
// written, Node goes on without it.
import { enableCompileCache } from 'node:module'

enableCompileCache()
await import('./serve.js')
