// Joins the waitlist with one PostgREST insert (docs/protocol.md), the same request supabase-js
// `from('waitlist').insert({ email })` sends, so the page works unchanged against our server or a
// Supabase project.
import { REST_PREFIX } from '../../contract/paths'
import { WAITLIST_TABLE } from '../../contract/waitlist'
import { site, type Site } from '../site'
import type { Attribution } from './attribution'

/** A request with no answer after 10 s counts as a failure the visitor can retry (docs/requirements.md#the-waitlist-form). */
export const WAITLIST_TIMEOUT_MS = 10_000

export type JoinResult = { ok: true } | { ok: false }

interface JoinOptions {
  site?: Pick<Site, 'waitlistUrl' | 'anonKey'>
  fetch?: typeof fetch
  timeoutMs?: number
}

/** Never throws: every failure, including a network error or a timeout, is `{ ok: false }`. */
export async function joinWaitlist(email: string, attribution: Attribution = {}, options: JoinOptions = {}): Promise<JoinResult> {
  const { waitlistUrl, anonKey } = options.site ?? site
  const doFetch = options.fetch ?? fetch
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? WAITLIST_TIMEOUT_MS)
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Prefer: 'return=minimal' }
  if (anonKey) {
    headers.apikey = anonKey
    headers.Authorization = `Bearer ${anonKey}`
  }
  const post = (row: object) =>
    doFetch(`${waitlistUrl}${REST_PREFIX}/${WAITLIST_TABLE}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(row),
      signal: controller.signal,
    })
  try {
    let response = await post({ email, ...attribution })
    // PGRST204: the backend has no such column (a Supabase project without our newest migration).
    // The address matters more than where it came from: it is sent again, alone.
    if (response.status === 400 && Object.keys(attribution).length > 0 && (await readErrorCode(response.clone())) === 'PGRST204')
      response = await post({ email })
    if (response.ok) return { ok: true }
    // 23505: a Supabase project without the duplicate-concealing trigger reports the duplicate;
    // for the visitor, being on the list already is a success.
    if (response.status === 409 && (await readErrorCode(response)) === '23505') return { ok: true }
    return { ok: false }
  } catch {
    // Network failure or timeout (abort): the caller shows the retryable error toast.
    return { ok: false }
  } finally {
    clearTimeout(timer)
  }
}

async function readErrorCode(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.json()
    if (body !== null && typeof body === 'object' && 'code' in body && typeof body.code === 'string') return body.code
  } catch {
    return undefined // a body that is not JSON has no code; the answer is a failure either way
  }
  return undefined
}
