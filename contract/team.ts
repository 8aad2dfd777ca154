// The team that runs the waitlist (docs/decisions/017-the-team.md): operators with roles, what
// each role may do, and what the team API (/admin/api) answers about them. Constants, types and
// pure checks; imports nothing outside this folder.
import type { Locale } from './locales.js'

/** The roles of people (and of the API tokens they make for scripts). */
export const OPERATOR_ROLES = ['owner', 'editor', 'viewer'] as const
export type OperatorRole = (typeof OPERATOR_ROLES)[number]

/**
 * The roles an API token may have: a person's, or `app`, the app's own, which claims profiles
 * (POST /api/app/claim) and can do nothing else. No person is `app`: an app signs in with no passkey.
 */
export const TOKEN_ROLES = [...OPERATOR_ROLES, 'app'] as const
export type TokenRole = (typeof TOKEN_ROLES)[number]

/** What a request may do: every admin route names the one it needs. */
export const PERMISSIONS = [
  /** The figures: totals, per day and source, the demand map, meters, the funnel (no address). */
  'figures:read',
  /** The list of sign-ups with their addresses, and the inviters' addresses. */
  'signups:read',
  'signups:export',
  'signups:delete',
  /** A CSV imported as sign-ups or suppressions (contract/imports.ts), its progress and its error file. */
  'signups:import',
  /** Campaign drafts, their previews and test sends. */
  'campaigns:write',
  /** Sending, pausing and resuming campaigns. */
  'campaigns:send',
  /** The outbox and the local mailbox (addresses in them). */
  'mail:read',
  /** The launch targets. */
  'settings:write',
  /** Operators, invitations and API tokens. */
  'team:manage',
  'audit:read',
  /** Webhook endpoints, their secrets and their delivery log. */
  'webhooks:manage',
  /** Typed breed names the catalogue missed, mapped to a breed. */
  'breeds:map',
  /** Bounces and complaints reported, and the suppression list changed. */
  'suppressions:write',
  /** A profile taken into the app by its app link's code: the `app` role's only permission. */
  'app:claim',
  /** Partners made, changed, disabled and given new keys (reading them is figures:read). */
  'partners:manage',
] as const
export type Permission = (typeof PERMISSIONS)[number]

export const ROLE_PERMISSIONS: Record<TokenRole, readonly Permission[]> = {
  // Everything a person may do: claiming is the app's alone (an owner's token claiming would hand
  // a profile to a script, not to its person's phone).
  owner: PERMISSIONS.filter((permission) => permission !== 'app:claim'),
  editor: [
    'figures:read',
    'signups:read',
    'signups:import',
    'campaigns:write',
    'mail:read',
    'breeds:map',
    'suppressions:write',
    'partners:manage',
  ],
  viewer: ['figures:read'],
  app: ['app:claim'],
}

export const can = (role: TokenRole, permission: Permission): boolean => ROLE_PERMISSIONS[role].includes(permission)

export const isOperatorRole = (value: unknown): value is OperatorRole =>
  typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value)

export const isTokenRole = (value: unknown): value is TokenRole =>
  typeof value === 'string' && (TOKEN_ROLES as readonly string[]).includes(value)

/** How long each kind of link and session lives. */
export const TEAM_TIMES = {
  /** The setup link printed at the first start (and by `operator invite` on the command line). */
  setupLinkMs: 60 * 60_000,
  /** An owner's invitation by mail. */
  inviteLinkMs: 7 * 24 * 60 * 60_000,
  /** An e-mail sign-in link. */
  signInLinkMs: 10 * 60_000,
  sessionMs: 12 * 60 * 60_000,
  sessionIdleMs: 60 * 60_000,
  /** A session's last sight is written at most this often (an hour's idle limit needs no finer clock). */
  sessionSeenWriteMs: 60_000,
  /** Export, delete, send and team changes need a sign-in at most this long ago. */
  recentSignInMs: 15 * 60_000,
  /** A WebAuthn ceremony's challenge. */
  challengeMs: 5 * 60_000,
} as const

/** The error code of a 403 that a sign-in within TEAM_TIMES.recentSignInMs would lift. */
export const RECENT_SIGN_IN_REQUIRED = 'recent_sign_in_required'

/** GET /admin/api/session: who is signed in, and what they may do. */
export interface SessionInfo {
  operator: { id: number; email: string; name: string; role: OperatorRole } | null
  /** The API token's name or ADMIN_TOKEN, when the request came with one. */
  token: string | null
  permissions: Permission[]
  /** ISO 8601: when this session signed in (null for a token). */
  signedInAt: string | null
  /** The operator's own language (PATCH /admin/api/me); a token's is English. */
  locale: Locale
}

/** GET /admin/api/setup/<token>: the setup or invitation link behind a token. */
export interface SetupLinkInfo {
  purpose: 'setup' | 'invite'
  /** The invitee's address; null on the first owner's link, where it is typed. */
  email: string | null
  role: OperatorRole
  expires_at: string
  /** The invitation's language, which its page speaks; null on the first owner's link (the browser's then). */
  locale: Locale | null
}

/** GET /admin/api/operators */
export interface OperatorSummary {
  id: number
  email: string
  name: string
  role: OperatorRole
  disabled: boolean
  created_at: string
  passkeys: number
}

export interface InvitationSummary {
  id: number
  email: string
  role: OperatorRole
  created_at: string
  expires_at: string
}

export interface TeamOverview {
  operators: OperatorSummary[]
  /** Invitations not yet used and not expired. */
  invitations: InvitationSummary[]
}

/** GET /admin/api/tokens */
export interface ApiTokenSummary {
  id: number
  name: string
  role: TokenRole
  created_at: string
  expires_at: string | null
  last_used_at: string | null
  revoked: boolean
}

/** GET /admin/api/passkeys: the signed-in operator's own. */
export interface PasskeySummary {
  id: string
  name: string
  created_at: string
  last_used_at: string | null
}

export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-in failed',
  'sign-out',
  'sign-in link sent',
  'setup link made',
  'operator invited',
  'invitation accepted',
  'invitation revoked',
  'role changed',
  'operator disabled',
  'operator enabled',
  'passkey added',
  'passkey removed',
  'token created',
  'token revoked',
  'signups exported',
  'signup deleted',
  'campaign sent',
  'campaign draft deleted',
  'campaign paused',
  'campaign resumed',
  'campaign test sent',
  'settings changed',
  'audit purged',
  'webhook created',
  'webhook changed',
  'webhook deleted',
  'webhook secret rotated',
  'webhook test sent',
  'webhook resent',
  'breed mapped',
  'mail event reported',
  'suppression added',
  'suppression lifted',
  'profile claimed',
  'partner added',
  'partner changed',
  'partner key rotated',
  'import started',
  'import finished',
  'import cancelled',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/** GET /admin/api/audit: newest first; `next` is the `before` of the next page. */
export interface AuditItem {
  id: number
  at: string
  /** The operator's e-mail as it was, an API token's name, ADMIN_TOKEN, or the command line. */
  actor: string
  action: AuditAction
  /** What it was done to: `operator 3`, `campaign 12`, `signup 4711` (never a visitor's address). */
  target: string | null
  detail: Record<string, unknown> | null
  request_id: string | null
}

export interface AuditPage {
  items: AuditItem[]
  next: number | null
}
