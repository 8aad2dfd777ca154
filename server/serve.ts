// The process: read the configuration, build the app, listen, and close gracefully on a signal
// (loaded by main.ts once the compile cache is on).
import { buildApp } from './app.js'
import { announceSetup } from './team/setup-link.js'
import { ConfigError, loadConfig } from './config.js'
import { listenFailure, StartupError } from './startup-error.js'

// The server prints its own lines only. At the first passkey registration @simplewebauthn/server
// asks Web Crypto whether it can verify ML-DSA (SubtleCrypto.supports), and Node 24 answers with two
// ExperimentalWarning lines of its own (Node 26 with none): those two are dropped, and every other
// warning is printed by Node's own printer, as it would be.
const WEB_CRYPTO_PROBE = /^The (supports Web Crypto API method|ML-DSA-\d+ Web Crypto API algorithm) is an experimental feature/
const printWarning = process.listeners('warning')
process.removeAllListeners('warning')
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && WEB_CRYPTO_PROBE.test(warning.message)) return
  for (const print of printWarning) print(warning)
})

async function main() {
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(error.message)
    process.exit(1)
  }
  const app = await buildApp(config)
  let closing = false
  const close = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'closing: finishing in-flight requests')
    await app.close()
    process.exit(0)
  }
  process.once('SIGTERM', () => void close('SIGTERM'))
  process.once('SIGINT', () => void close('SIGINT'))
  try {
    await app.listen({ port: config.PORT, host: config.HOST })
  } catch (error) {
    await app.close()
    throw listenFailure(error, config.HOST, config.PORT)
  }
  // A plain line for the person at the console, on stderr: stdout stays the JSON log, and a log
  // shipper that keeps it does not keep the link (a secret for one hour) with it.
  await announceSetup(app, (line) => console.error(line))
}

main().catch((error: unknown) => {
  // A start that cannot work is said plainly; anything else is a bug, printed whole.
  console.error(error instanceof StartupError ? error.message : error)
  process.exit(1)
})
