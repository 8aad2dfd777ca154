// The admin API as the page calls it, with the token of this tab.
import { ADMIN_API_PREFIX } from '../../contract/paths'
import type { LocalMailPreview, MailOverview, SignupsPage, Stats } from '../../contract/admin-api'
import type { CampaignDraft, CampaignProgress, CampaignRequest, Segments } from '../../contract/campaigns'
import type { Funnel, LaunchTargets } from '../../contract/growth'
import type { Locale } from '../../contract/locales'

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    /** The answer's own message (a 400 names the field). */
    readonly detail = '',
  ) {
    super(`admin API answered ${status}`)
  }
}

export function createAdminApi(token: string) {
  async function call(path: string, init: RequestInit = {}): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` }
    if (init.body !== undefined) headers['Content-Type'] = 'application/json'
    const response = await fetch(`${ADMIN_API_PREFIX}${path}`, { ...init, headers })
    if (!response.ok) {
      const detail = await response.json().then(
        (body: { message?: string }) => body.message ?? '',
        () => '',
      )
      throw new AdminApiError(response.status, detail)
    }
    return response
  }
  return {
    stats: async (): Promise<Stats> => (await call('/stats')).json(),
    mail: async (): Promise<MailOverview> => (await call('/mail')).json(),
    segments: async (): Promise<Segments> => (await call('/segments')).json(),
    campaigns: async (): Promise<CampaignProgress[]> => (await call('/campaigns')).json(),
    draft: async (request: Omit<CampaignRequest, 'send'>): Promise<CampaignDraft> =>
      (await call('/campaigns', { method: 'POST', body: JSON.stringify({ ...request, send: false }) })).json(),
    send: async (id: number): Promise<{ id: number; recipients: number }> =>
      (await call(`/campaigns/${id}/send`, { method: 'POST' })).json(),
    test: async (id: number, email: string, locale: Locale): Promise<void> =>
      void (await call(`/campaigns/${id}/test`, { method: 'POST', body: JSON.stringify({ email, locale }) })),
    pause: async (id: number, paused: boolean): Promise<CampaignProgress> =>
      (await call(`/campaigns/${id}/${paused ? 'pause' : 'resume'}`, { method: 'POST' })).json(),
    launchTargets: async (): Promise<LaunchTargets> => (await call('/launch-targets')).json(),
    setLaunchTargets: async (targets: LaunchTargets): Promise<LaunchTargets> =>
      (await call('/launch-targets', { method: 'PUT', body: JSON.stringify(targets) })).json(),
    funnel: async (since: string, until: string): Promise<Funnel> =>
      (await call(`/funnel?${new URLSearchParams({ since, until })}`)).json(),
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
