// Loaded into the server's process by bench/scale.ts and bench/import.ts (node --import): how long
// its event loop was held, measured where it happens. The bench asks over the IPC channel; the
// answer is the longest delay since it last asked (ms), and the count starts again. `rss`: the
// process's resident memory now (bytes).
import { monitorEventLoopDelay } from 'node:perf_hooks'

const delay = monitorEventLoopDelay({ resolution: 5 })
delay.enable()
process.on('message', (message) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage.rss() })
  if (message !== 'loop-max') return
  process.send?.({ loopMax: delay.max / 1e6 })
  delay.reset()
})
