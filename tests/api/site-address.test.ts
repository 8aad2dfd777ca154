// The address the server runs with reaches what it serves (issue 30, item 12): a build made with
// the default http://localhost:3000, started with SITE_URL (or on another port without it), names
// that address in every landing page, robots.txt and sitemap.xml; a server reachable beyond this
// machine without SITE_URL says so in one warning line.
import { afterEach, describe, expect, it } from 'vitest'
import { LOCALES, localePath } from '../../contract/locales'
import { runToExit, type ServerProcess, spawnServer } from '../support/process'
import { tempSqlitePath } from '../support/server'

let running: ServerProcess | undefined
const databases: (() => void)[] = []
afterEach(async () => {
  await running?.stop('SIGKILL')
  running = undefined
  for (const cleanup of databases.splice(0)) cleanup()
})
/** A fresh SQLite file for one start, removed after the test. */
const sqlitePath = () => {
  const { path, cleanup } = tempSqlitePath()
  databases.push(cleanup)
  return path
}

/** Everything the server sends that names the site's address. */
async function addressed(url: string): Promise<Record<string, string>> {
  const paths = [...LOCALES.map(localePath), '/robots.txt', '/sitemap.xml']
  return Object.fromEntries(await Promise.all(paths.map(async (path) => [path, await (await fetch(`${url}${path}`)).text()] as const)))
}

const warning = /SITE_URL is not set, and the server listens beyond this machine/

describe('the site address the server runs with', () => {
  it('is in every landing page, robots.txt and sitemap.xml when SITE_URL is set at start', async () => {
    running = await spawnServer({ SQLITE_PATH: sqlitePath(), SITE_URL: 'https://kennect.example' })
    for (const [path, text] of Object.entries(await addressed(running.url))) {
      expect(text, path).not.toContain('localhost')
      expect(text, path).toContain('https://kennect.example/')
    }
    const pages = await addressed(running.url)
    expect(pages['/de/']).toContain('<link rel="canonical" href="https://kennect.example/de/"')
    expect(pages['/robots.txt']).toContain('Sitemap: https://kennect.example/sitemap.xml')
    expect(pages['/sitemap.xml']).toContain('<loc>https://kennect.example/it/</loc>')
    // A sign-up from that page still works (the form's slot is filled as before).
    expect(pages['/']).toMatch(/name="token" value="[^"@]+"/)
    expect(running.output()).not.toMatch(warning)
  })

  it('is where the server listens without SITE_URL (another port than the build default)', async () => {
    running = await spawnServer({ SQLITE_PATH: sqlitePath() })
    const port = new URL(running.url).port
    expect(port).not.toBe('3000')
    const pages = await addressed(running.url)
    expect(pages['/']).toContain(`<link rel="canonical" href="http://localhost:${port}/"`)
    expect(pages['/robots.txt']).toContain(`Sitemap: http://localhost:${port}/sitemap.xml`)
    for (const [path, text] of Object.entries(pages)) expect(text, path).not.toContain('localhost:3000')
    expect(running.output()).not.toMatch(warning)
  })

  it('is asked for in one warning line when the server listens beyond loopback without it', async () => {
    running = await spawnServer({ SQLITE_PATH: sqlitePath(), HOST: '0.0.0.0' })
    await running.waitForOutput(warning)
    expect(
      running
        .output()
        .split('\n')
        .filter((line) => warning.test(line)),
    ).toHaveLength(1)
    await running.stop()
    running = await spawnServer({ SQLITE_PATH: sqlitePath(), HOST: '0.0.0.0', SITE_URL: 'https://kennect.example' })
    await (await fetch(running.url)).text()
    expect(running.output()).not.toMatch(warning)
  })

  it('refuses an address that would need escaping in a page', async () => {
    const { code, output } = await runToExit({ SQLITE_PATH: sqlitePath(), SITE_URL: 'https://kennect.example/"><script>' })
    expect(code).toBe(1)
    expect(output).toContain('SITE_URL')
  })
})
