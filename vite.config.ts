import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { adminWords } from './scripts/vite-admin-words.ts'

const root = fileURLToPath(new URL('./web', import.meta.url))

export default defineConfig({
  root,
  envDir: fileURLToPath(new URL('.', import.meta.url)),
  // SITE_URL keeps the name the README gives it; like VITE_* it is public (the canonical address).
  envPrefix: ['VITE_', 'SITE_URL'],
  plugins: [react(), tailwindcss(), adminWords()],
  define: {
    // The footer's year as of the build; the page corrects it in the browser (web/sections/footer.tsx).
    __BUILD_YEAR__: JSON.stringify(new Date().getUTCFullYear()),
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    // No modulepreload links or polyfill: the page loads its one script itself after the first
    // paint (scripts/build.mjs, deferScript), and the typo hint's chunk when the field is focused.
    modulePreload: false,
    // The landing page. scripts/build.mjs builds web/admin.html in a second pass, so the two
    // pages share no chunk and the landing page stays one script.
    rollupOptions: { input: { index: `${root}/index.html` } },
  },
})
