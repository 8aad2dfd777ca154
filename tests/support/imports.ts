// Imports as the admin page and a script start them: a multipart upload (the fields, then `file`),
// then the status asked for until the import has ended.
import { expect } from 'vitest'
import type { ImportStatus } from '../../contract/imports'
import type { TestServer } from './server'
import { OUTCOME_WAIT_MS } from './waits'

/** Who calls: a bearer token (a script, ADMIN_TOKEN), or an operator's session cookie from the page. */
export type Caller = { token: string } | { cookie: string }

const authOf = (server: TestServer, caller: Caller): Record<string, string> =>
  'token' in caller ? { authorization: `Bearer ${caller.token}` } : { cookie: caller.cookie, origin: server.url }

/** POST /admin/api/imports: the fields in their order, then the file. */
export function upload(server: TestServer, caller: Caller, fields: Record<string, string>, file: string | Buffer, name = 'members.csv') {
  const form = new FormData()
  for (const [key, value] of Object.entries(fields)) form.append(key, value)
  form.append('file', new Blob([typeof file === 'string' ? file : new Uint8Array(file)], { type: 'text/csv' }), name)
  return fetch(`${server.url}/admin/api/imports`, { method: 'POST', headers: authOf(server, caller), body: form })
}

export function adminGet(server: TestServer, caller: Caller, path: string) {
  return fetch(`${server.url}/admin/api${path}`, { headers: authOf(server, caller) })
}

/** The import's status once it has ended (done, failed or cancelled). */
export async function ended(server: TestServer, caller: Caller, id: number): Promise<ImportStatus> {
  let status: ImportStatus | undefined
  await expect
    .poll(
      async () => {
        status = (await (await adminGet(server, caller, `/imports/${id}`)).json()) as ImportStatus
        return status.status
      },
      { timeout: OUTCOME_WAIT_MS, interval: 100 },
    )
    .not.toBe('running')
  return status as ImportStatus
}

/** Uploads a file and waits for its import to end. */
export async function imported(
  server: TestServer,
  caller: Caller,
  fields: Record<string, string>,
  file: string | Buffer,
): Promise<ImportStatus> {
  const answer = await upload(server, caller, fields, file)
  expect(answer.status, await answer.clone().text()).toBe(202)
  return ended(server, caller, ((await answer.json()) as { id: number }).id)
}
