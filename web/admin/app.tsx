// The admin app: one navigation, one route and one folder per view (views/*), each shown only to
// a role that may use it. Signed out, it is the way in: a passkey, an e-mail link, or a setup link.
import {
  Component,
  type ComponentType,
  type ReactNode,
  StrictMode,
  Suspense,
  lazy,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { createRoot } from 'react-dom/client'
import { Link, Route, Router, Switch, useLocation } from 'wouter'
import { ADMIN_PAGE_PATH } from '../../contract/paths'
import { type Permission, type SessionInfo } from '../../contract/team'
import { Button } from '../components/ui/button'
import { cn } from '../lib/cn'
import { AdminApiError, createAdminApi, signInApi } from './api'
import { adminContent as copy } from './content'
import { site } from '../site'
import { LanguageMenu } from './language-menu'
import { ReauthDialog } from './reauth'
import { type AdminSession, SessionContext } from './session'
import { OverviewView } from './views/overview/overview'
import { SetupView } from './views/setup/setup'
import { SignInView } from './views/sign-in/sign-in'

// The first view and the screens before sign-in come with the app; every other view is a chunk of
// its own, fetched when it is opened: the first load carries what it shows (docs/performance.md,
// the back office's weight). A view's module reads its words when it runs, after main.tsx set them.
const AccountView = lazy(() => import('./views/account/account').then((m) => ({ default: m.AccountView })))
const AuditView = lazy(() => import('./views/audit/audit').then((m) => ({ default: m.AuditView })))
const BreedsView = lazy(() => import('./views/breeds/breeds').then((m) => ({ default: m.BreedsView })))
const CampaignsView = lazy(() => import('./views/campaigns/campaigns').then((m) => ({ default: m.CampaignsView })))
const DeliverabilityView = lazy(() => import('./views/deliverability/deliverability').then((m) => ({ default: m.DeliverabilityView })))
const DemandView = lazy(() => import('./views/demand/demand').then((m) => ({ default: m.DemandView })))
const ImportsView = lazy(() => import('./views/imports/imports').then((m) => ({ default: m.ImportsView })))
const MailView = lazy(() => import('./views/mail/mail').then((m) => ({ default: m.MailView })))
const PartnersView = lazy(() => import('./views/partners/partners').then((m) => ({ default: m.PartnersView })))
const SignupsView = lazy(() => import('./views/signups/signups').then((m) => ({ default: m.SignupsView })))
const TeamView = lazy(() => import('./views/team/team').then((m) => ({ default: m.TeamView })))
const WebhooksView = lazy(() => import('./views/webhooks/webhooks').then((m) => ({ default: m.WebhooksView })))

interface View {
  path: string
  label: string
  /** 'self': an operator's own (an API token has no account). */
  permission: Permission | 'self'
  View: ComponentType
}

const VIEWS: readonly View[] = [
  { path: '/', label: copy.nav.overview, permission: 'figures:read', View: OverviewView },
  { path: '/signups', label: copy.nav.signups, permission: 'signups:read', View: SignupsView },
  { path: '/import', label: copy.nav.imports, permission: 'signups:import', View: ImportsView },
  { path: '/demand', label: copy.nav.demand, permission: 'figures:read', View: DemandView },
  { path: '/breeds', label: copy.nav.breeds, permission: 'figures:read', View: BreedsView },
  { path: '/campaigns', label: copy.nav.campaigns, permission: 'figures:read', View: CampaignsView },
  { path: '/partners', label: copy.nav.partners, permission: 'figures:read', View: PartnersView },
  { path: '/deliverability', label: copy.nav.deliverability, permission: 'figures:read', View: DeliverabilityView },
  { path: '/mail', label: copy.nav.mail, permission: 'mail:read', View: MailView },
  { path: '/team', label: copy.nav.team, permission: 'team:manage', View: TeamView },
  { path: '/audit', label: copy.nav.audit, permission: 'audit:read', View: AuditView },
  { path: '/webhooks', label: copy.nav.webhooks, permission: 'webhooks:manage', View: WebhooksView },
  { path: '/account', label: copy.nav.account, permission: 'self', View: AccountView },
]

/** Renders the app into the page (main.tsx calls it once the operator's words are loaded). */
export function mountAdmin(root: HTMLElement, session: SessionInfo | null): void {
  createRoot(root).render(
    <StrictMode>
      <AdminApp session={session} />
    </StrictMode>,
  )
}

/** `session`: who was signed in as the page loaded (null: nobody), asked before its words were chosen. */
export function AdminApp({ session }: { session: SessionInfo | null }) {
  return (
    <Router base={ADMIN_PAGE_PATH}>
      <Admin initial={session} />
    </Router>
  )
}

function Admin({ initial }: { initial: SessionInfo | null }) {
  // null: nobody is signed in.
  const [session, setSession] = useState<SessionInfo | null>(initial)
  const [, navigate] = useLocation()
  // Signed in: an operator whose language is not the page's gets the page again, in theirs.
  const enter = useCallback((fresh: SessionInfo, to?: string) => {
    if (fresh.locale !== copy.locale) window.location.assign(to ?? window.location.href)
    else setSession(fresh)
  }, [])
  const signedIn = useCallback(
    (fresh: SessionInfo) => {
      enter(fresh, ADMIN_PAGE_PATH)
      navigate(`~${ADMIN_PAGE_PATH}`, { replace: true })
    },
    [enter, navigate],
  )
  return (
    <Switch>
      <Route path="/setup/:token">{(params) => <SetupView token={params.token} onSignedIn={signedIn} />}</Route>
      <Route>{session === null ? <SignInView onSignedIn={enter} /> : <SignedIn session={session} onSession={setSession} />}</Route>
    </Switch>
  )
}

function SignedIn({ session, onSession }: { session: SessionInfo; onSession: (session: SessionInfo | null) => void }) {
  const [error, setError] = useState('')
  const [asking, setAsking] = useState<((ok: boolean) => void) | null>(null)
  // Made once: onSession is the page's state setter, which never changes.
  const api = useMemo(
    () =>
      createAdminApi({
        reauthenticate: () => new Promise<boolean>((resolve) => setAsking(() => resolve)),
        signedOut: () => onSession(null),
      }),
    [onSession],
  )
  const onFailure = useCallback((failure: unknown) => {
    if (failure instanceof AdminApiError && failure.status === 401) return
    setError(failure instanceof AdminApiError && failure.status === 403 ? copy.notAllowed : copy.failed)
  }, [])
  const can = useCallback((permission: Permission) => session.permissions.includes(permission), [session])
  const admin = useMemo<AdminSession>(() => ({ api, session, can, onFailure }), [api, session, can, onFailure])
  const allowed = (view: View) => (view.permission === 'self' ? session.operator !== null : can(view.permission))

  const [location] = useLocation()
  const main = useRef<HTMLElement>(null)
  const first = useRef(true)
  useEffect(() => {
    // After a move in the navigation, the view's start takes the focus (as a page load would).
    if (first.current) first.current = false
    else main.current?.focus()
  }, [location])

  async function signOut() {
    await signInApi.signOut()
    onSession(null)
  }

  const view = VIEWS.find((candidate) => candidate.path === location)
  return (
    <SessionContext.Provider value={admin}>
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-5 pt-4">
          <p className="text-xl font-bold text-stone-900">{site.productName}</p>
          <div className="flex flex-wrap items-center gap-3">
            {session.operator ? <LanguageMenu /> : null}
            <span className="hidden text-sm break-all text-stone-700 sm:inline">
              {session.operator ? copy.signedInAs(session.operator.email, session.operator.role) : session.token}
            </span>
            <Button variant="outline" size="sm" onClick={() => void signOut()}>
              {copy.signOut}
            </Button>
          </div>
        </div>
        <nav aria-label={copy.nav.label} className="mx-auto max-w-6xl px-3 pb-2">
          <ul className="mt-2 flex flex-wrap gap-1">
            {VIEWS.filter(allowed).map((item) => (
              <li key={item.path}>
                <Link
                  href={item.path}
                  aria-current={item.path === location ? 'page' : undefined}
                  onClick={() => setError('')}
                  className={(active) =>
                    cn(
                      'block rounded-md px-2.5 py-1.5 text-sm font-medium focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none',
                      active ? 'bg-brand-700 text-white' : 'text-stone-700 hover:bg-stone-100',
                    )
                  }
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main
        ref={main}
        tabIndex={-1}
        aria-label={view?.label ?? site.productName}
        className="mx-auto max-w-6xl px-5 py-6 focus:outline-none"
      >
        <h1 className="sr-only">
          {site.productName}: {view?.label ?? copy.notFound}
        </h1>
        <p role="alert" className="mb-2 text-sm font-medium text-red-700 empty:hidden">
          {error}
        </p>
        {!view ? (
          <p className="text-stone-800">{copy.notFound}</p>
        ) : allowed(view) ? (
          // A view not yet fetched says so if its chunk (a few KB from our own site) takes long; a
          // fetch that failed says so where the view would be, with a reload, the rest of the page
          // working.
          <ViewFailed key={view.path}>
            <Suspense fallback={<StillLoading />}>
              <view.View />
            </Suspense>
          </ViewFailed>
        ) : (
          <p className="text-stone-800">{copy.notAllowed}</p>
        )}
      </main>
      {asking ? (
        <ReauthDialog
          email={session.operator?.email ?? ''}
          onDone={(fresh) => {
            const same = fresh !== null && fresh.operator?.id === session.operator?.id
            if (fresh) onSession(fresh)
            asking(same)
            setAsking(null)
          }}
        />
      ) : null}
    </SessionContext.Provider>
  )
}

/**
 * A view whose chunk could not be fetched (the network, or a deployment that replaced it) or that
 * failed as it rendered: the page's "try again" in its place, not an empty page. Keyed by the
 * view's path, so another view starts afresh.
 */
class ViewFailed extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    // React keeps a chunk's failed fetch: the page loaded again fetches it afresh.
    return this.state.failed ? (
      <div role="alert" className="flex flex-wrap items-center gap-3 text-stone-800">
        <p>{copy.failed}</p>
        <Button variant="outline" size="sm" onClick={() => window.location.reload()}>
          {copy.reload}
        </Button>
      </div>
    ) : (
      this.props.children
    )
  }
}

/** A view's chunk on its way: said only when it takes long enough to notice (most take a few ms). */
function StillLoading() {
  const [shown, setShown] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), 400)
    return () => clearTimeout(timer)
  }, [])
  return (
    <p role="status" className="text-sm text-stone-600">
      {shown ? copy.loading : ''}
    </p>
  )
}
