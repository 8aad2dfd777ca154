import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { adminWords } from './scripts/vite-admin-words.ts'

export default defineConfig({
  plugins: [react(), adminWords()],
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getUTCFullYear()) },
  test: {
    // Two cores here: one file per core, and no file waits on another's server.
    maxWorkers: 2,
    // expect.poll waits for what a person would wait for (a view's data, a meter after a save): its
    // default of 1 s failed a correct admin view on a loaded machine (the demand map's first fetch).
    // A poll that holds returns at once; only a failing one takes the 15 s to say so.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          // Files share a worker's modules (the server's code, imported once per worker instead of
          // once per file: 77 s of imports in a run became 13). No test changes process.env or mocks a
          // module; each file starts its own servers. The layer: 484 -> 411 s, 727 -> 579 s of CPU.
          isolate: false,
          globalSetup: ['tests/support/api-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          // As the API layer's: 81 s of imports became 7; the layer 823 -> 615 s.
          isolate: false,
          globalSetup: ['tests/support/browser-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
