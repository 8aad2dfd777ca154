// The admin API as the page calls it. The page holds no secret: the browser sends the session's
// cookie (HttpOnly, so no script can read it), and every write is JSON, which the server asks of a
// cookie's write along with a same-origin Origin (docs/decisions/017-the-team.md).
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser'
import { ADMIN_API_PREFIX } from '../../contract/paths'
import type { LocalMailPreview, MailOverview, SignupsPage, Stats } from '../../contract/admin-api'
import type { BreedMetersAnswer, BreedTargets, SegmentSide, UnmatchedAnswer } from '../../contract/breed-meters'
import type { CampaignDraft, CampaignProgress, CampaignRequest, CampaignWritten, Segments } from '../../contract/campaigns'
import type { Deliverability } from '../../contract/deliverability'
import type { Funnel, LaunchTargets } from '../../contract/growth'
import type { ImportPreview, ImportStatus } from '../../contract/imports'
import type { Locale } from '../../contract/locales'
import type { Suppression } from '../../contract/mail-events'
import type { WebhookAttempt, WebhookEndpoint } from '../../contract/webhooks'
import type { Partner, PartnerChange, PartnerDetail, PartnerRequest, PartnerSnippets } from '../../contract/partners'
import {
  type ApiTokenSummary,
  type AuditPage,
  type OperatorRole,
  type PasskeySummary,
  RECENT_SIGN_IN_REQUIRED,
  type SessionInfo,
  type SetupLinkInfo,
  type TeamOverview,
  type TokenRole,
} from '../../contract/team'

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    /** The answer's own message (a 400 names the field). */
    readonly detail = '',
    /** The answer's error code, such as recent_sign_in_required. */
    readonly code: string | null = null,
  ) {
    super(`admin API answered ${status}`)
  }
}

export interface Ceremony<Options> {
  challengeId: string
  options: Options
}

/**
 * Asked when the server wants a recent sign-in for what was just tried (export, delete, send, team
 * changes): resolves true once the operator has signed in again, and the call is made once more.
 */
export type Reauthenticate = () => Promise<boolean>

async function errorOf(response: Response): Promise<AdminApiError> {
  const body = await response.json().then(
    (parsed: { message?: string; code?: string | null }) => parsed,
    () => ({}) as { message?: string; code?: string | null },
  )
  return new AdminApiError(response.status, body.message ?? '', body.code ?? null)
}

async function request(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, ...rest } = init
  // A write carries a JSON body (the server refuses a cookie's write that is not JSON), unless it
  // is an upload that brings its own (an import's file, or its first bytes: the routes that take them say so).
  const write = (rest.method ?? 'GET') !== 'GET' && rest.body === undefined
  return fetch(`${ADMIN_API_PREFIX}${path}`, {
    ...rest,
    credentials: 'same-origin',
    ...(write ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json ?? {}) } : {}),
  })
}

/** The breeds' filters as the view's selects hold them, each empty for any. */
export interface BreedFilter {
  breed: string
  country: string
  side: SegmentSide | ''
}

/** `path` with the filters chosen as its query (none: no query). */
function withBreedFilter(path: string, filter: BreedFilter): string {
  const query = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== '')).toString()
  return query ? `${path}?${query}` : path
}

/** The breeds as CSV, filtered: a plain link downloads it, with the session's cookie (no recent sign-in needed). */
export const breedsCsvUrl = (filter: BreedFilter): string => `${ADMIN_API_PREFIX}${withBreedFilter('/breeds.csv', filter)}`

/** An import's error file: a plain link downloads it, with the session's cookie. */
export const importErrorsUrl = (id: number): string => `${ADMIN_API_PREFIX}/imports/${id}/errors.csv`

/** The suppression list as CSV: a plain link downloads it, with the session's cookie. */
export const suppressionsCsvUrl = `${ADMIN_API_PREFIX}/suppressions.csv`

/** Each setup page's link, by its token (signInApi.setup). */
const setupLinks = new Map<string, Promise<SetupLinkInfo>>()

/** The calls before anyone is signed in: who is signed in, and the ways in. */
export const signInApi = {
  session: async (): Promise<SessionInfo | null> => {
    const response = await request('/session/current')
    if (!response.ok) throw await errorOf(response)
    return ((await response.json()) as { session: SessionInfo | null }).session
  },
  signOut: async (): Promise<void> => {
    await request('/session', { method: 'DELETE' })
  },
  sendLink: async (email: string): Promise<void> => {
    const response = await request('/session/link', { method: 'POST', json: { email } })
    if (!response.ok) throw await errorOf(response)
  },
  passkeyOptions: async (): Promise<Ceremony<PublicKeyCredentialRequestOptionsJSON>> => {
    const response = await request('/session/passkey/options', { method: 'POST' })
    if (!response.ok) throw await errorOf(response)
    return response.json()
  },
  passkey: async (challengeId: string, response: AuthenticationResponseJSON): Promise<SessionInfo> => {
    const answer = await request('/session/passkey', { method: 'POST', json: { challengeId, response } })
    if (!answer.ok) throw await errorOf(answer)
    return answer.json()
  },
  /**
   * The link behind a setup page's token, asked once a page: the page's start reads its language,
   * the view its purpose, and a second ask would count a gone link's failure twice. Only the answer
   * is kept, or a 404 (the link is gone); a failure of any other kind is asked again.
   */
  setup: (token: string): Promise<SetupLinkInfo> => {
    let asked = setupLinks.get(token)
    if (asked === undefined) {
      asked = request(`/setup/${encodeURIComponent(token)}`)
        .then(async (response) => {
          if (!response.ok) throw await errorOf(response)
          return (await response.json()) as SetupLinkInfo
        })
        .catch((error: unknown) => {
          if (!(error instanceof AdminApiError && error.status === 404)) setupLinks.delete(token)
          throw error
        })
      setupLinks.set(token, asked)
    }
    return asked
  },
  setupOptions: async (token: string, who: { email?: string; name: string }): Promise<Ceremony<PublicKeyCredentialCreationOptionsJSON>> => {
    const response = await request(`/setup/${encodeURIComponent(token)}/options`, { method: 'POST', json: who })
    if (!response.ok) throw await errorOf(response)
    return response.json()
  },
  completeSetup: async (
    token: string,
    body: { email?: string; name: string; challengeId?: string; passkeyName?: string; response?: RegistrationResponseJSON },
  ): Promise<SessionInfo> => {
    const response = await request(`/setup/${encodeURIComponent(token)}`, { method: 'POST', json: body })
    if (!response.ok) throw await errorOf(response)
    // The link is used: a later visit to its page (the browser's back button) asks again, and is told it is gone.
    setupLinks.delete(token)
    return response.json()
  },
}

/**
 * The signed-in API. A 403 asking for a recent sign-in calls `reauthenticate` and, once it
 * succeeded, tries the call once more; a 401 (the session ended) calls `signedOut`.
 */
export function createAdminApi({ reauthenticate, signedOut }: { reauthenticate: Reauthenticate; signedOut: () => void }) {
  async function call(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    let response = await request(path, init)
    if (response.status === 403) {
      const failure = await errorOf(response.clone())
      if (failure.code === RECENT_SIGN_IN_REQUIRED && (await reauthenticate())) response = await request(path, init)
    }
    if (!response.ok) {
      if (response.status === 401) signedOut()
      throw await errorOf(response)
    }
    return response
  }
  return {
    /** The signed-in operator's own language (theirs alone). */
    setLanguage: async (locale: Locale): Promise<SessionInfo> => (await call('/me', { method: 'PATCH', json: { locale } })).json(),
    stats: async (): Promise<Stats> => (await call('/stats')).json(),
    mail: async (): Promise<MailOverview> => (await call('/mail')).json(),
    /** `breed` (a catalogue id): the map of the sign-ups that named it; the meters and inviters stay everyone's. */
    segments: async (breed?: string): Promise<Segments> =>
      (await call(breed ? `/segments?${new URLSearchParams({ breed })}` : '/segments')).json(),
    campaigns: async (): Promise<CampaignProgress[]> => (await call('/campaigns')).json(),
    campaignSettings: async (): Promise<{ appStoreUrl: boolean; playStoreUrl: boolean }> => (await call('/campaigns/settings')).json(),
    draft: async (campaign: Omit<CampaignRequest, 'send'>): Promise<CampaignDraft> =>
      (await call('/campaigns', { method: 'POST', json: { ...campaign, send: false } })).json(),
    openDraft: async (id: number): Promise<CampaignWritten> => (await call(`/campaigns/${id}/draft`)).json(),
    updateDraft: async (id: number, campaign: Omit<CampaignRequest, 'send'>): Promise<CampaignDraft> =>
      (await call(`/campaigns/${id}`, { method: 'PUT', json: campaign })).json(),
    deleteDraft: async (id: number): Promise<void> => void (await call(`/campaigns/${id}`, { method: 'DELETE' })),
    send: async (id: number): Promise<{ id: number; recipients: number }> =>
      (await call(`/campaigns/${id}/send`, { method: 'POST' })).json(),
    test: async (id: number, email: string, locale: Locale): Promise<void> =>
      void (await call(`/campaigns/${id}/test`, { method: 'POST', json: { email, locale } })),
    pause: async (id: number, paused: boolean): Promise<CampaignProgress> =>
      (await call(`/campaigns/${id}/${paused ? 'pause' : 'resume'}`, { method: 'POST' })).json(),
    launchTargets: async (): Promise<LaunchTargets> => (await call('/launch-targets')).json(),
    setLaunchTargets: async (targets: LaunchTargets): Promise<LaunchTargets> =>
      (await call('/launch-targets', { method: 'PUT', json: targets })).json(),
    breeds: async (filter: BreedFilter): Promise<BreedMetersAnswer & { countedAt: string }> =>
      (await call(withBreedFilter('/breeds', filter))).json(),
    breedTargets: async (): Promise<BreedTargets> => (await call('/breeds/targets')).json(),
    setBreedTargets: async (targets: BreedTargets): Promise<BreedTargets> =>
      (await call('/breeds/targets', { method: 'PUT', json: targets })).json(),
    unmatchedBreeds: async (): Promise<UnmatchedAnswer> => (await call('/breeds/unmatched')).json(),
    mapBreed: async (name: string, breed: string): Promise<{ name: string; breed: string; mapped: number }> =>
      (await call('/breeds/unmatched', { method: 'POST', json: { name, breed } })).json(),
    /** `breed` (a catalogue id): the cohorts of the sign-ups that named it; views are everyone's. */
    funnel: async (since: string, until: string, breed?: string): Promise<Funnel> =>
      (await call(`/funnel?${new URLSearchParams({ since, until, ...(breed ? { breed } : {}) })}`)).json(),
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
    team: async (): Promise<TeamOverview> => (await call('/operators')).json(),
    /** `locale`: the invitation's language, which the invitee starts in. */
    invite: async (email: string, role: OperatorRole, locale: Locale): Promise<void> =>
      void (await call('/operators', { method: 'POST', json: { email, role, locale } })),
    changeOperator: async (id: number, change: { role: OperatorRole } | { disabled: boolean }): Promise<void> =>
      void (await call(`/operators/${id}`, { method: 'PATCH', json: change })),
    tokens: async (): Promise<ApiTokenSummary[]> => (await call('/tokens')).json(),
    addToken: async (token: { name: string; role: TokenRole; expiresAt?: string }): Promise<{ id: number; token: string }> =>
      (await call('/tokens', { method: 'POST', json: token })).json(),
    revokeToken: async (id: number): Promise<void> => void (await call(`/tokens/${id}`, { method: 'DELETE' })),
    revokeInvitation: async (id: number): Promise<void> => void (await call(`/operators/invitations/${id}`, { method: 'DELETE' })),
    passkeys: async (): Promise<PasskeySummary[]> => (await call('/passkeys')).json(),
    passkeyOptions: async (): Promise<Ceremony<PublicKeyCredentialCreationOptionsJSON>> =>
      (await call('/passkeys/options', { method: 'POST' })).json(),
    addPasskey: async (challengeId: string, name: string, response: RegistrationResponseJSON): Promise<void> =>
      void (await call('/passkeys', { method: 'POST', json: { challengeId, name, response } })),
    removePasskey: async (id: string): Promise<void> => void (await call(`/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' })),
    partners: async (): Promise<Partner[]> => (await call('/partners')).json(),
    partner: async (id: number): Promise<PartnerDetail> => (await call(`/partners/${id}`)).json(),
    partnerSnippets: async (id: number, locale: Locale): Promise<PartnerSnippets> =>
      (await call(`/partners/${id}/snippets?lang=${locale}`)).json(),
    addPartner: async (partner: PartnerRequest): Promise<Partner> => (await call('/partners', { method: 'POST', json: partner })).json(),
    changePartner: async (id: number, change: PartnerChange): Promise<Partner> =>
      (await call(`/partners/${id}`, { method: 'PATCH', json: change })).json(),
    rotatePartnerKey: async (id: number): Promise<Partner> => (await call(`/partners/${id}/key`, { method: 'POST' })).json(),
    webhooks: async (): Promise<WebhookEndpoint[]> => (await call('/webhooks')).json(),
    addWebhook: async (endpoint: {
      url: string
      events: string[]
      description: string
      includeEmail: boolean
    }): Promise<WebhookEndpoint & { secret: string }> => (await call('/webhooks', { method: 'POST', json: endpoint })).json(),
    changeWebhook: async (
      id: number,
      change: Partial<{ enabled: boolean; includeEmail: boolean; events: string[]; url: string; description: string }>,
    ): Promise<void> => void (await call(`/webhooks/${id}`, { method: 'PATCH', json: change })),
    removeWebhook: async (id: number): Promise<void> => void (await call(`/webhooks/${id}`, { method: 'DELETE' })),
    rotateWebhook: async (id: number): Promise<{ secret: string; previousValidUntil: string }> =>
      (await call(`/webhooks/${id}/rotate`, { method: 'POST' })).json(),
    testWebhook: async (id: number): Promise<void> => void (await call(`/webhooks/${id}/test`, { method: 'POST' })),
    webhookLog: async (id: number): Promise<{ items: WebhookAttempt[]; next: number | null }> =>
      (await call(`/webhooks/${id}/deliveries?limit=50`)).json(),
    resendDelivery: async (id: number, delivery: number): Promise<void> =>
      void (await call(`/webhooks/${id}/deliveries/${delivery}/resend`, { method: 'POST' })),
    resendFailed: async (id: number, since: string): Promise<{ resent: number }> =>
      (await call(`/webhooks/${id}/resend`, { method: 'POST', json: { since } })).json(),
    deliverability: async (): Promise<Deliverability> => (await call('/deliverability')).json(),
    /** `signal` cancels it: a newer search makes an older one's answer worthless. */
    suppressions: async (q: string, signal?: AbortSignal): Promise<Suppression[]> =>
      (
        (await (await call(q ? `/suppressions?${new URLSearchParams({ q })}` : '/suppressions', signal ? { signal } : {})).json()) as {
          items: Suppression[]
        }
      ).items,
    suppress: async (email: string): Promise<{ email: string; added: boolean }> =>
      (await call('/suppressions', { method: 'POST', json: { email } })).json(),
    liftSuppression: async (email: string): Promise<void> =>
      void (await call(`/suppressions/${encodeURIComponent(email)}`, { method: 'DELETE' })),
    imports: async (): Promise<ImportStatus[]> => ((await (await call('/imports')).json()) as { items: ImportStatus[] }).items,
    importStatus: async (id: number): Promise<ImportStatus> => (await call(`/imports/${id}`)).json(),
    /** The file's first bytes as the import will read them (`partial`: the file goes on past them). */
    previewImport: async (head: Blob, partial: boolean): Promise<ImportPreview> =>
      (await call(`/imports/preview?partial=${partial}`, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: head })).json(),
    /** The fields, then the file (the server reads them in that order). */
    startImport: async (fields: Record<string, string>, file: File): Promise<{ id: number }> => {
      const form = new FormData()
      for (const [name, value] of Object.entries(fields)) form.append(name, value)
      form.append('file', file, file.name)
      return (await call('/imports', { method: 'POST', body: form })).json()
    },
    cancelImport: async (id: number): Promise<ImportStatus> => (await call(`/imports/${id}/cancel`, { method: 'POST' })).json(),
    audit: async (before?: number): Promise<AuditPage> =>
      (
        await call(`/audit?${new URLSearchParams(before === undefined ? { limit: '50' } : { limit: '50', before: String(before) })}`)
      ).json(),
  }
}

export type AdminApi = ReturnType<typeof createAdminApi>
