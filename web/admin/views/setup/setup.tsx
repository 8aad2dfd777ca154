// The setup link (the first owner's, printed at the first start) and an owner's invitation: the
// new operator names themself and creates a passkey; an invitee may come in without one and sign
// in by e-mail link from then on. Passkeys exist only on a secure page (https, or localhost): over
// plain http at a LAN address the browser has none, so the page says so before anything is tried
// and offers only the ways in that work there.
import { startRegistration } from '@simplewebauthn/browser'
import { type FormEvent, useEffect, useState } from 'react'
import type { SessionInfo, SetupLinkInfo } from '../../../../contract/team'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { AdminApiError, signInApi } from '../../api'
import { adminContent } from '../../content'

const copy = adminContent.setup

type Link = Pick<SetupLinkInfo, 'purpose' | 'email' | 'role'>

export function SetupView({ token, onSignedIn }: { token: string; onSignedIn: (session: SessionInfo) => void }) {
  const [link, setLink] = useState<Link | 'gone' | null>(null)
  const [waiting, setWaiting] = useState(false)
  const [error, setError] = useState('')
  useEffect(() => {
    signInApi.setup(token).then(setLink, () => setLink('gone'))
  }, [token])

  if (link === null) return <main className="mx-auto mt-16 max-w-md p-8" aria-busy="true" />
  if (link === 'gone')
    return (
      <main className="mx-auto mt-16 max-w-md rounded-2xl bg-white p-8 shadow">
        <h1 className="text-2xl font-bold text-stone-900">{copy.heading('invite')}</h1>
        <p className="mt-4 text-stone-800">{copy.gone}</p>
      </main>
    )
  const { purpose, email, role } = link
  // WebAuthn is [SecureContext]: outside one, navigator.credentials.create is missing and trying
  // failed with no reason given.
  const passkeys = window.isSecureContext
  // The same link where the browser counts it secure: on the server's own machine.
  const localLink = `http://localhost${window.location.port ? `:${window.location.port}` : ''}${window.location.pathname}`
  const insecure = passkeys ? null : (
    <div role="note" className="mt-4 grid gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-stone-900">
      <p>{copy.insecure.reason(window.location.origin)}</p>
      <p className="break-words">{purpose === 'setup' ? copy.insecure.firstOwner(localLink) : copy.insecure.invite}</p>
    </div>
  )

  async function submit(event: FormEvent<HTMLFormElement>, withPasskey: boolean) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const who = { name: String(form.get('name') ?? ''), ...(email ? {} : { email: String(form.get('email') ?? '') }) }
    setWaiting(true)
    setError('')
    try {
      if (!withPasskey) return onSignedIn(await signInApi.completeSetup(token, who))
      const { challengeId, options } = await signInApi.setupOptions(token, who)
      const response = await startRegistration({ optionsJSON: options })
      onSignedIn(
        await signInApi.completeSetup(token, { ...who, challengeId, response, passkeyName: String(form.get('passkeyName') ?? '') }),
      )
    } catch (failure) {
      if (failure instanceof AdminApiError && failure.status === 404) setLink('gone')
      else setError((failure instanceof AdminApiError && adminContent.refusal(failure)) || copy.failed)
    } finally {
      setWaiting(false)
    }
  }

  return (
    <main className="mx-auto mt-16 max-w-md rounded-2xl bg-white p-8 shadow">
      <h1 className="text-2xl font-bold text-stone-900">{copy.heading(purpose)}</h1>
      {passkeys ? <p className="mt-3 text-stone-800">{copy.intro(role)}</p> : insecure}
      {/* The first owner comes in with a passkey only (server/team/session-routes.ts): no form to fill in vain. */}
      {passkeys || purpose === 'invite' ? (
        <form
          className="mt-6 grid gap-3"
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter
            void submit(event, submitter?.getAttribute('value') !== 'without')
          }}
        >
          {email ? (
            <p className="font-medium break-all text-stone-900">{email}</p>
          ) : (
            <>
              <label htmlFor="setup-email" className="text-sm font-medium text-stone-700">
                {copy.email}
              </label>
              <Input id="setup-email" name="email" type="email" required autoComplete="email" />
            </>
          )}
          <label htmlFor="setup-name" className="text-sm font-medium text-stone-700">
            {copy.name}
          </label>
          <Input id="setup-name" name="name" maxLength={100} autoComplete="name" />
          {passkeys ? (
            <>
              <label htmlFor="setup-passkey-name" className="text-sm font-medium text-stone-700">
                {copy.passkeyName}
              </label>
              <Input id="setup-passkey-name" name="passkeyName" maxLength={60} placeholder={copy.passkeyNamePlaceholder} />
              <Button type="submit" value="passkey" disabled={waiting}>
                {waiting ? copy.waiting : copy.create}
              </Button>
            </>
          ) : null}
          {purpose === 'invite' ? (
            <Button type="submit" value="without" variant={passkeys ? 'outline' : 'default'} disabled={waiting}>
              {copy.withoutPasskey}
            </Button>
          ) : null}
          <p role="alert" className="text-sm font-medium text-red-700 empty:hidden">
            {error}
          </p>
        </form>
      ) : null}
    </main>
  )
}
