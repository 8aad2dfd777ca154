// The house's boundaries, as the linter holds them (eslint.config.js): code placed in each folder
// and linted with the project's own configuration.
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

async function boundaryMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  // ESLint prefixes the message with the import it refused.
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message.replace(/^.* by a pattern\. /, ''))
}

// The first lint loads typescript-eslint's parser: seconds on a busy machine, not a behaviour.
describe('the import boundaries', { timeout: 60_000 }, () => {
  it('refuse web/ importing the server, at any depth', async () => {
    expect(
      await boundaryMessages('web/sections/x.tsx', "import { buildApp } from '../../server/app'\nexport const x = buildApp\n"),
    ).toEqual(['web/ imports only web/ and contract/: the server is reached over HTTP.'])
    expect(await boundaryMessages('web/x.ts', "import { loadConfig } from '../server/config'\nexport const x = loadConfig\n")).toHaveLength(
      1,
    )
  })

  it('refuse server/ importing the page', async () => {
    expect(await boundaryMessages('server/http/x.ts', "import { content } from '../../web/content'\nexport const x = content\n")).toEqual([
      'server/ imports only server/ and contract/: the page is reached over HTTP.',
    ])
  })

  it('refuse contract/ importing anything outside itself', async () => {
    expect(await boundaryMessages('contract/x.ts', "import { z } from 'zod'\nexport const x = z\n")).toHaveLength(1)
    expect(
      await boundaryMessages('contract/x.ts', "import { loadConfig } from '../server/config'\nexport const x = loadConfig\n"),
    ).toHaveLength(1)
    expect(await boundaryMessages('contract/x.ts', "import { REST_PREFIX } from './paths'\nexport const x = REST_PREFIX\n")).toEqual([])
  })

  it('let both sides import contract/ and their own folders', async () => {
    expect(
      await boundaryMessages(
        'web/sections/x.tsx',
        "import { JOIN_PATH } from '../../contract/paths'\nimport { cn } from '../lib/cn'\nexport const x = [JOIN_PATH, cn]\n",
      ),
    ).toEqual([])
    expect(
      await boundaryMessages(
        'server/waitlist/x.ts',
        "import { WAITLIST_TABLE } from '../../contract/waitlist'\nimport { HttpError } from '../http/errors'\nexport const x = [WAITLIST_TABLE, HttpError]\n",
      ),
    ).toEqual([])
  })
})
