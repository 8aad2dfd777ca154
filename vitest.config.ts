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
    // A poll that holds returns at once; only a failing one takes the 30 s to say so (a wait for an
    // outcome, tests/support/waits.ts, takes a minute; a poll reads again what is already there).
    expect: { poll: { timeout: 30_000 } },
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
          // No test fails for slowness alone (issue 49, item 14): on CI's two cores, with Node 26's
          // line beside Node 24's, tests took twice their time alone, and a bound of 30 s failed
          // correct ones (3,000 claims on PostgreSQL, a backup's commands, the command line's
          // campaigns). One bound for every test and hook here, none of their own below it.
          testTimeout: 120_000,
          hookTimeout: 120_000,
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
          // As the API layer's: slowness alone fails nothing.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
