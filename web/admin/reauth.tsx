// The prompt to sign in again: export, delete, send and team changes need a sign-in within the
// last 15 minutes, and the server says so with a 403 the API layer hands to this dialog.
import { useEffect, useRef, useState } from 'react'
import type { SessionInfo } from '../../contract/team'
import { Button } from '../components/ui/button'
import { adminContent } from './content'
import { LinkForm, signInWithPasskey } from './views/sign-in/sign-in'

const copy = adminContent.reauth

export function ReauthDialog({ email, onDone }: { email: string; onDone: (session: SessionInfo | null) => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const [waiting, setWaiting] = useState(false)
  const [error, setError] = useState('')
  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
    return () => element?.close()
  }, [])
  async function passkey() {
    setWaiting(true)
    setError('')
    try {
      onDone(await signInWithPasskey())
    } catch {
      setError(copy.failed)
    } finally {
      setWaiting(false)
    }
  }
  return (
    <dialog
      ref={dialog}
      aria-labelledby="reauth-heading"
      onCancel={(event) => {
        event.preventDefault()
        onDone(null)
      }}
      className="m-auto w-[min(24rem,calc(100vw-2rem))] rounded-2xl bg-white p-6 shadow-xl backdrop:bg-stone-900/50"
    >
      <h2 id="reauth-heading" className="text-xl font-bold text-stone-900">
        {copy.heading}
      </h2>
      <p className="mt-2 text-stone-800">{copy.intro}</p>
      <div className="mt-4 grid gap-3">
        <Button onClick={() => void passkey()} disabled={waiting}>
          {waiting ? adminContent.signIn.waiting : copy.passkey}
        </Button>
        <p role="alert" className="text-sm font-medium text-red-700 empty:hidden">
          {error}
        </p>
      </div>
      <details className="mt-4">
        <summary className="cursor-pointer text-sm font-medium text-stone-700">{copy.link}</summary>
        <div className="mt-3">
          <LinkForm id="reauth-email" label={adminContent.signIn.sendLink} email={email} />
        </div>
      </details>
      <Button variant="outline" className="mt-4 w-full" onClick={() => onDone(null)}>
        {copy.cancel}
      </Button>
    </dialog>
  )
}
