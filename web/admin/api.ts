// The admin API as the page calls it, with the token of this tab.
import { ADMIN_API_PREFIX } from '../../contract/paths'
import type { LocalMailPreview, MailOverview, SignupsPage, Stats } from '../../contract/admin-api'

export class AdminApiError extends Error {
  constructor(readonly status: number) {
    super(`admin API answered ${status}`)
  }
}

export function createAdminApi(token: string) {
  async function call(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(`${ADMIN_API_PREFIX}${path}`, { ...init, headers: { Authorization: `Bearer ${token}` } })
    if (!response.ok) throw new AdminApiError(response.status)
    return response
  }
  return {
    stats: async (): Promise<Stats> => (await call('/stats')).json(),
    mail: async (): Promise<MailOverview> => (await call('/mail')).json(),
    localMail: async (name: string): Promise<LocalMailPreview> => (await call(`/mail/local/${encodeURIComponent(name)}`)).json(),
    /** `signal` cancels it: a newer search makes an older one's answer worthless. */
    signups: async (search: string, after?: number, signal?: AbortSignal): Promise<SignupsPage> => {
      const query = new URLSearchParams({ limit: '50' })
      if (search) query.set('search', search)
      if (after !== undefined) query.set('after', String(after))
      return (await call(`/signups?${query}`, signal ? { signal } : {})).json()
    },
    remove: async (email: string): Promise<boolean> =>
      (await (await call(`/signups?${new URLSearchParams({ email })}`, { method: 'DELETE' })).json()).removed,
    exportCsv: async (): Promise<{ blob: Blob; filename: string }> => {
      const response = await call('/export.csv')
      const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'waitlist.csv'
      return { blob: await response.blob(), filename }
    },
  }
}

export type AdminApi = ReturnType<typeof createAdminApi>
