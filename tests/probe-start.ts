import { startServer } from './support/server'
for (const kind of ['sqlite', 'postgres'] as const) {
  const s0 = await startServer({}, kind); await s0.close()
  for (let i = 0; i < 4; i++) {
    const t = performance.now()
    const s = await startServer({}, kind)
    const t2 = performance.now()
    await s.close()
    console.log(kind, 'start', Math.round(t2 - t), 'close', Math.round(performance.now() - t2))
  }
}
