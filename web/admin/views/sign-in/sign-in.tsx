// Signing in: a passkey, or a link by e-mail as the way back in. The page keeps nothing: the
// server sets the session's cookie, which no script can read.
import { startAuthentication } from '@simplewebauthn/browser'
import { type FormEvent, useState } from 'react'
import type { SessionInfo } from '../../../../contract/team'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { AdminApiError, signInApi } from '../../api'
import { adminContent } from '../../content'

const copy = adminContent.signIn

/** The passkey ceremony from the options to the session: throws when it did not sign in. */
export async function signInWithPasskey(): Promise<SessionInfo> {
  const { challengeId, options } = await signInApi.passkeyOptions()
  const response = await startAuthentication({ optionsJSON: options })
  return signInApi.passkey(challengeId, response)
}

/** The "e-mail me a link" form, here and in the prompt to sign in again. */
export function LinkForm({ id, label, email = '' }: { id: string; label: string; email?: string }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'tooMany' | 'failed'>('idle')
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setState('sending')
    try {
      await signInApi.sendLink(String(new FormData(event.currentTarget).get('email') ?? ''))
      setState('sent')
    } catch (failure) {
      setState(failure instanceof AdminApiError && failure.status === 429 ? 'tooMany' : 'failed')
    }
  }
  return (
    <form onSubmit={submit} className="grid gap-3">
      <label htmlFor={id} className="text-sm font-medium text-stone-700">
        {copy.emailLabel}
      </label>
      <Input id={id} name="email" type="email" required autoComplete="username webauthn" defaultValue={email} />
      <Button type="submit" variant="outline" disabled={state === 'sending'}>
        {state === 'sending' ? copy.sending : label}
      </Button>
      <p role="status" className="min-h-5 text-sm text-stone-700">
        {state === 'sent' ? copy.linkSent : ''}
      </p>
      <p role="alert" className="text-sm font-medium text-red-700 empty:hidden">
        {state === 'tooMany' ? copy.tooMany : state === 'failed' ? adminContent.failed : ''}
      </p>
    </form>
  )
}

export function SignInView({ onSignedIn }: { onSignedIn: (session: SessionInfo) => void }) {
  const [waiting, setWaiting] = useState(false)
  const [error, setError] = useState('')
  async function passkey() {
    setWaiting(true)
    setError('')
    try {
      onSignedIn(await signInWithPasskey())
    } catch (failure) {
      setError(failure instanceof AdminApiError && failure.status === 429 ? copy.tooMany : copy.passkeyFailed)
    } finally {
      setWaiting(false)
    }
  }
  return (
    <main className="mx-auto mt-16 max-w-sm rounded-2xl bg-white p-8 shadow">
      <h1 className="text-2xl font-bold text-stone-900">{copy.heading}</h1>
      <div className="mt-6 grid gap-3">
        <Button onClick={() => void passkey()} disabled={waiting}>
          {waiting ? copy.waiting : copy.passkey}
        </Button>
        <p role="alert" className="text-sm font-medium text-red-700 empty:hidden">
          {error}
        </p>
      </div>
      <p className="my-6 text-center text-sm text-stone-600">{copy.or}</p>
      <LinkForm id="sign-in-email" label={copy.sendLink} />
    </main>
  )
}
