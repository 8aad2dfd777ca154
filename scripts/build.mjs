// @ts-check
// `npm run build`: the page (client bundle + prerendered HTML) into dist/client, the server into
// dist/server (with the contract it shares with the page in dist/contract). The prerender renders the same React components the browser hydrates.
// `--page-only --out DIR`: the landing page alone into DIR (a static build for another backend,
// e.g. with VITE_WAITLIST_URL set; the tests build one to check the page made for Supabase).
import './node-version.mjs' // first: an older Node stops here, in one line
import { spawnSync } from 'node:child_process'
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'vite'

const root = fileURLToPath(new URL('..', import.meta.url))
const { values: args } = parseArgs({ options: { 'page-only': { type: 'boolean', default: false }, out: { type: 'string' } } })
const pageOnly = args['page-only'] ?? false
if (pageOnly !== (args.out !== undefined)) throw new Error('build: --page-only and --out DIR go together')
const dist = `${root}dist`
const clientDir = args.out ?? `${dist}/client`
// Inside the project, where the prerender's imports (react) resolve; one per page-only build.
const prerenderDir = pageOnly ? `${dist}/prerender-${process.pid}` : `${dist}/prerender`

await build({ configFile: `${root}vite.config.ts`, logLevel: 'warn', build: { outDir: clientDir } })
// The operators' page (/admin), rendered in the browser only; it shares no chunk with the page.
if (!pageOnly)
  await build({
    configFile: `${root}vite.config.ts`,
    logLevel: 'warn',
    // (A string input: an object would be merged with the config's and rebuild both pages together.)
    build: { outDir: clientDir, emptyOutDir: false, copyPublicDir: false, rollupOptions: { input: `${root}web/admin.html` } },
  })
await build({
  configFile: `${root}vite.config.ts`,
  logLevel: 'warn',
  build: { ssr: `${root}web/entry-prerender.tsx`, outDir: prerenderDir, emptyOutDir: true, copyPublicDir: false },
})
// The visitor's pages (/me/<token>): a render module the server loads at start, with React and
// everything else bundled in, so a production install without dev dependencies can run it.
if (!pageOnly)
  await build({
    configFile: `${root}vite.config.ts`,
    logLevel: 'warn',
    ssr: { noExternal: true },
    // React's production build, whatever NODE_ENV the server runs with: bundled, React picks its
    // build by process.env.NODE_ENV at run time, and its development build (checks, warnings)
    // rendered a visitor's page in ~27 ms instead of ~9 at p50 (docs/performance.md, issue 41).
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      ssr: `${root}web/entry-visitor.tsx`,
      outDir: `${dist}/visitor`,
      emptyOutDir: true,
      minify: true,
      copyPublicDir: false,
      rollupOptions: { output: { entryFileNames: 'render.js' } },
    },
  })
// A partner's embed (docs/partners.md): one classic script at a fixed address, /embed.js (its tag
// finds itself as document.currentScript, which a module cannot), with nothing else to fetch.
if (!pageOnly)
  await build({
    configFile: `${root}vite.config.ts`,
    logLevel: 'warn',
    build: {
      outDir: clientDir,
      emptyOutDir: false,
      copyPublicDir: false,
      lib: { entry: `${root}web/embed/embed.ts`, formats: ['iife'], name: 'kennectEmbed', fileName: () => 'embed.js' },
      rollupOptions: { input: `${root}web/embed/embed.ts` },
    },
  })
await prerender()
await rm(prerenderDir, { recursive: true, force: true })
await precompress(clientDir)
if (pageOnly) {
  console.log(`build: the page is ready in ${clientDir}`)
} else {
  await compileServer()
  await writeFile(`${dist}/.build-stamp`, `${new Date().toISOString()}\n`)
  console.log('build: dist/client (page) and dist/server (server) are ready')
}

async function prerender() {
  /** @type {typeof import('../web/entry-prerender')} */
  const entry = await import(pathToFileURL(`${prerenderDir}/entry-prerender.js`).href)
  const page = entry.render()
  let html = await readFile(`${clientDir}/index.html`, 'utf8')
  // Inline the stylesheet: the first paint needs nothing but the HTML (no render-blocking request).
  // The 404 pages keep it whole; each landing page keeps only what its header and hero use, and
  // loads the file itself after them (criticalCss below).
  const stylesheets = [...html.matchAll(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g)]
  const [tag, file] = stylesheets[0] ?? []
  if (stylesheets.length !== 1 || !tag || !file)
    throw new Error(`build: expected one stylesheet in index.html, found ${stylesheets.length}`)
  const stylesheet = { href: `/${file}`, css: await readFile(`${clientDir}/${file}`, 'utf8') }
  html = html.replace(tag, () => `<style>${stylesheet.css}</style>`)
  // The page for unknown addresses: the same template and CSS, its own body, no script at all.
  const withoutScript = html.replace(/<script type="module"[^>]*><\/script>\s*/g, '')
  html = deferScript(html)
  // One page per language: / (English), /de/, /fr/… (docs/decisions/016-languages.md).
  for (const language of page.pages) {
    const file = `${clientDir}${language.path}index.html`
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, await criticalCss(fillOutlets(html, language), stylesheet))
    // The words the server writes into the page's slots (server/http/landing-page.ts). A page-only
    // build is served by no server of ours: its slots hold what the page was built with.
    const words = page.words[language.path]
    if (pageOnly && words) await writeFile(file, entry.withoutServer(await readFile(file, 'utf8'), words))
  }
  if (!pageOnly) await writeFile(`${dist}/landing.json`, `${JSON.stringify(page.words, null, 2)}\n`)
  // Each language's page for unknown addresses: 404.html, de/404.html… (server/http/not-found.ts).
  for (const language of page.notFound) await writeFile(`${clientDir}${language.path}404.html`, fillOutlets(withoutScript, language))
  // The visitor's pages: the same template, their own CSS, one small script of their own (Copy and
  // Share for the invite link; the page works without it); the server fills head and body.
  if (!pageOnly) {
    const css = await visitorCss()
    const script = await visitorScript()
    const shell = withoutScript
      .replace(/<style>[^]*?<\/style>/, () => `<style>${css}</style>`)
      // The language is the sign-up's: the server fills <!--app-lang--> as it fills head and body.
      .replace('</head>', () => `  <script type="module" src="${script}"></script>\n  </head>`)
    await writeFile(`${dist}/visitor/shell.html`, shell)
  }
  for (const [path, text] of Object.entries(page.files)) {
    await mkdir(dirname(`${clientDir}${path}`), { recursive: true })
    await writeFile(`${clientDir}${path}`, text)
  }
  await renderImages(page.images)
}

/** The visitor's page's CSS (web/visitor/visitor.css), compiled by Vite and Tailwind like the page's. */
async function visitorCss() {
  const outDir = `${dist}/visitor-css`
  await build({
    configFile: `${root}vite.config.ts`,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, copyPublicDir: false, rollupOptions: { input: `${root}web/visitor/visitor.css` } },
  })
  const files = (await readdir(`${outDir}/assets`)).filter((file) => file.endsWith('.css'))
  if (files.length !== 1) throw new Error(`build: expected one CSS file for the visitor's page, found ${files.length}`)
  const css = await readFile(`${outDir}/assets/${files[0]}`, 'utf8')
  await rm(outDir, { recursive: true, force: true })
  return css
}

/** The visitor's page's script (web/visitor/invite.ts), built into the page's assets; answers its path. */
async function visitorScript() {
  const result = await build({
    configFile: `${root}vite.config.ts`,
    logLevel: 'warn',
    build: {
      outDir: clientDir,
      emptyOutDir: false,
      copyPublicDir: false,
      rollupOptions: { input: `${root}web/visitor/invite.ts`, output: { entryFileNames: 'assets/visitor-[hash].js' } },
    },
  })
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []))
  const entry = outputs.find((chunk) => chunk.type === 'chunk' && chunk.isEntry)
  if (!entry) throw new Error("build: the visitor's page's script was not built")
  return `/${entry.fileName}`
}

/**
 * The page is complete without its script (docs/decisions/002-islands.md), so nothing but the
 * document is fetched or run before the first paint: Vite's module script becomes a small inline
 * loader that imports the bundle once the browser reports its first contentful paint (at the
 * next frame where paint timing is not reported), or at once when the visitor touches, types or
 * focuses anything first. The server allows this one inline script by its hash in the CSP
 * (server/http/security.ts); docs/performance.md has the measurements.
 * @param {string} html
 */
function deferScript(html) {
  const tags = [...html.matchAll(/<script type="module" crossorigin src="([^"]+)"><\/script>/g)]
  const [tag, src] = tags[0] ?? []
  if (tags.length !== 1 || !tag || !src) throw new Error(`build: expected one module script in index.html, found ${tags.length}`)
  if (/<link rel="modulepreload"/.test(html)) throw new Error('build: a modulepreload link would fetch the script before the first paint')
  const loader = [
    `let started=0;const start=()=>{if(!started){started=1;import(${JSON.stringify(src)})}}`,
    `for(const type of["pointerdown","keydown","focusin","touchstart"])addEventListener(type,start,{capture:true,once:true,passive:true})`,
    `if(globalThis.PerformanceObserver?.supportedEntryTypes?.includes("paint"))new PerformanceObserver((list,observer)=>{if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();setTimeout(start)}}).observe({type:"paint",buffered:true});else requestAnimationFrame(()=>setTimeout(start))`,
  ].join(';')
  return html.replace(tag, () => `<script type="module">${loader}</script>`)
}

/**
 * A landing page sends only the CSS its first paint uses (docs/decisions/023-the-css-below-the-fold-later.md):
 * the inlined <style> keeps the rules that match the header and the hero (in any state: hover,
 * focus, an open menu, dark, any width), chosen by Beasties against the page cut where the first
 * paint ends, the element its <link rel="expect" blocking="render"> names (the section after the
 * hero). The whole stylesheet, a hashed file cached for a year, is linked right inside that
 * element: Chromium paints what comes before a stylesheet in the body while it loads, and reads on
 * once it has arrived, so nothing below is ever shown without it (nor does any script run before
 * it: the module scripts wait for the parser), and it is the last word of the cascade, in Tailwind's
 * order. `fetchpriority="low"`: the hero's bytes go first; a stylesheet at the default (highest)
 * priority is also taken for a render-blocking one by Lighthouse's simulation.
 * @param {string} page a landing page, its whole stylesheet inlined
 * @param {{ href: string, css: string }} stylesheet
 */
async function criticalCss(page, stylesheet) {
  const expected = /<link rel="expect" href="#([^"]+)" blocking="render" \/>/.exec(page)?.[1]
  if (!expected || !/^[\w-]+$/.test(expected))
    throw new Error('build: the landing page has no <link rel="expect" href="#…" blocking="render" />: where does its first paint end?')
  const start = new RegExp(`<[a-z]+\\b[^>]*\\sid="${expected}"[^>]*>`).exec(page.slice(page.indexOf('<body')))
  if (!start) throw new Error(`build: the landing page has no element with id="${expected}"`)
  const end = page.indexOf('<body') + start.index + start[0].length
  const inlined = `<style>${stylesheet.css}</style>`
  if (page.indexOf(inlined) === -1 || page.indexOf(inlined) > end)
    throw new Error('build: the landing page has no inlined stylesheet in its head')
  const { default: Beasties } = await import('beasties')
  const beasties = new Beasties({
    reduceInlineStyles: true,
    external: false,
    // Every @keyframes: an animation named through a theme variable (`animate-spin` is
    // `animation: var(--animate-spin)`) is one Beasties cannot see.
    keyframes: 'all',
    // Tailwind's space-* and divide-* rules read `:where(.divide-y>:not(:last-child))`: Beasties
    // strips a pseudo-class with what it wraps before matching, so it would find nothing to match.
    allowRules: [/^:where\(\.(?:space|divide)-[^>]+>:not\(:last-child\)\)$/],
    logLevel: 'warn',
  })
  // The page as far as the first paint goes: Beasties keeps the rules that match an element in it.
  const cut = await beasties.process(page.slice(0, end))
  const kept = /<style>([^]*?)<\/style>/.exec(cut)?.[1]
  if (kept === undefined || kept.length === 0) throw new Error('build: Beasties kept no CSS for the landing page')
  const link = `<link rel="stylesheet" href="${stylesheet.href}" fetchpriority="low" />`
  return `${page.slice(0, end)}${link}${page.slice(end)}`.replace(inlined, () => `<style>${kept}</style>`)
}

/**
 * @param {string} template web/index.html after Vite, with its outlets
 * @param {{ lang: string, head: string, html: string }} page
 */
function fillOutlets(template, page) {
  let html = template
  const fill = { '<!--app-lang-->': page.lang, '<!--app-head-->': page.head, '<!--app-html-->': page.html }
  for (const [outlet, value] of Object.entries(fill)) {
    if (!html.includes(outlet)) throw new Error(`web/index.html has no ${outlet} outlet`)
    html = html.replace(outlet, () => value)
  }
  return html
}

/**
 * The icons and the link preview, from SVG to PNG with resvg (WebAssembly: no native binary to
 * install) and the Inter font from npm, so the image is the same on every machine.
 * @param {import('../web/share').ShareImage[]} images
 */
async function renderImages(images) {
  const { initWasm, Resvg } = await import('@resvg/resvg-wasm')
  const modules = `${root}node_modules`
  await initWasm(await readFile(`${modules}/@resvg/resvg-wasm/index_bg.wasm`)).catch((error) => {
    // Initialised already: a second build in the same process (the tests build more than once).
    if (!String(error).includes('Already initialized')) throw error
  })
  const fonts = ['400Regular/Inter_400Regular.ttf', '700Bold/Inter_700Bold.ttf', '800ExtraBold/Inter_800ExtraBold.ttf']
  const fontBuffers = await Promise.all(fonts.map((font) => readFile(`${modules}/@expo-google-fonts/inter/${font}`)))
  for (const image of images) {
    const resvg = new Resvg(image.svg, {
      fitTo: { mode: 'width', value: image.width },
      font: { fontBuffers, loadSystemFonts: false, defaultFontFamily: 'Inter' },
    })
    const rendered = resvg.render()
    if (rendered.width !== image.width || rendered.height !== image.height) {
      throw new Error(`build: ${image.path} came out ${rendered.width}×${rendered.height}, expected ${image.width}×${image.height}`)
    }
    await writeFile(`${clientDir}${image.path}`, rendered.asPng())
  }
}

/**
 * Brotli and gzip copies of every text file worth compressing, made once here at the highest
 * levels instead of on every request; the server sends whichever the browser accepts.
 * @param {string} dir
 */
async function precompress(dir) {
  const br = promisify(brotliCompress)
  const gz = promisify(gzip)
  for (const entry of await readdir(dir, { recursive: true })) {
    const path = `${dir}/${entry}`
    if (!/\.(html|js|css|svg|json|txt|xml|webmanifest)$/.test(entry) || (await stat(path)).size < 1024) continue
    const data = await readFile(path)
    await writeFile(`${path}.br`, await br(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
    await writeFile(`${path}.gz`, await gz(data, { level: 9 }))
  }
}

async function compileServer() {
  // A fresh output: a file moved or deleted in server/ must not live on in dist/.
  for (const dir of ['server', 'contract']) await rm(`${dist}/${dir}`, { recursive: true, force: true })
  const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.server.json`], {
    stdio: 'inherit',
  })
  if (tsc.status !== 0) throw new Error('build: compiling the server failed (see above)')
}
