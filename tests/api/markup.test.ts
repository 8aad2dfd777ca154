// The built pages as the W3C Nu HTML checker (vnu-jar) reads them: no error. Three kinds of its
// messages are the checker's own gaps, not the page's, each filtered by its exact words:
// - `@property` (CSS Properties and Values, Baseline since 2024), `margin-trim` and a custom
//   property in `transition-property` are valid CSS its CSS validator does not know yet;
// - `<link rel="expect" blocking="render">` is in the HTML Standard (the `expect` link type may be
//   render-blocking); the checker allows `blocking` on stylesheets only.
// Anything else it says fails the test. It needs Java: without it the test says so and is skipped.
import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const VNU = join(process.cwd(), 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar')
const javaAvailable = spawnSync('java', ['-version']).status === 0
if (!javaAvailable) console.warn('\n*** The Nu HTML checker needs Java (apt-get install default-jre-headless): its test is skipped ***\n')

/** The checker's known gaps (see above), by the words of its messages. */
export const CHECKER_GAPS = [
  /^CSS: Unrecognized at-rule “@property”\.?$/,
  /^CSS: “margin-trim”: Property “margin-trim” doesn't exist\.?$/,
  /^CSS: “transition-property”: “--tw-[\w-]+” is not a “transition-property” value\.?$/,
  /^A “link” element with a “blocking” attribute must have a “rel” attribute whose value is “stylesheet”\.$/,
]

const pages = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? pages(path) : name.endsWith('.html') ? [path] : []
  })

describe.skipIf(!javaAvailable)('the built pages, by the W3C Nu HTML checker', () => {
  it('have no error but the checker’s own gaps, on every language, the 404 page and the admin shell', { timeout: 120_000 }, () => {
    const files = pages(join(process.cwd(), 'dist', 'client'))
    expect(files.length).toBeGreaterThanOrEqual(8)
    let output = ''
    try {
      execFileSync('java', ['-jar', VNU, '--errors-only', '--format', 'json', ...files], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    } catch (error) {
      output = (error as { stderr?: string }).stderr ?? ''
    }
    const messages = output
      ? ((JSON.parse(output) as { messages: { type: string; message: string; url: string; lastLine?: number }[] }).messages ?? [])
      : []
    const errors = messages.filter((m) => m.type === 'error' && !CHECKER_GAPS.some((gap) => gap.test(m.message)))
    expect(errors.map((m) => `${m.url.replace(/.*dist\/client\//, '')}:${m.lastLine ?? '?'}: ${m.message}`)).toEqual([])
    // The filters are not blanket ones: each matched what it is for, on the home page at least.
    expect(messages.some((m) => m.message.includes('@property'))).toBe(true)
  })
})
