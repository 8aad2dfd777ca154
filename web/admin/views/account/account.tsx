// The signed-in operator's own account: their passkeys, each named, added and removed here.
import { startRegistration } from '@simplewebauthn/browser'
import { type FormEvent, useState } from 'react'
import type { PasskeySummary } from '../../../../contract/team'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import type { AdminApi } from '../../api'
import { adminContent } from '../../content'
import { useLoaded } from '../../hooks'
import { useAdmin } from '../../session'
import { TableRegion, td } from '../../table'
import { ActionOutcome } from '../../outcome'

const copy = adminContent.account
const format = adminContent.format
const when = (iso: string | null) => (iso ? format.dateTime(iso) : adminContent.team.never)
/** A last use: how long ago it was (its moment beside, for a hover). */
const ago = (iso: string | null) =>
  iso ? (
    <time dateTime={iso} title={format.dateTime(iso)}>
      {format.ago(iso)}
    </time>
  ) : (
    adminContent.team.never
  )

const loadPasskeys = (api: AdminApi) => api.passkeys()

export function AccountView() {
  const { api, session, onFailure } = useAdmin()
  const { data: passkeys, reload } = useLoaded(loadPasskeys)
  const [notice, setNotice] = useState('')
  const [problem, setProblem] = useState('')

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const name = String(new FormData(form).get('name') ?? '')
    setNotice('')
    setProblem('')
    try {
      const { challengeId, options } = await api.passkeyOptions()
      await api.addPasskey(challengeId, name, await startRegistration({ optionsJSON: options }))
      setNotice(copy.added)
      form.reset()
      reload()
    } catch {
      setProblem(copy.failed)
    }
  }

  async function remove(passkey: PasskeySummary) {
    if (!window.confirm(copy.confirmRemove(passkey.name))) return
    try {
      await api.removePasskey(passkey.id)
      reload()
    } catch (failure) {
      onFailure(failure)
    }
  }

  return (
    <section aria-labelledby="account-heading" className="rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="account-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.heading}
      </h2>
      <p className="mt-2 font-medium break-all text-stone-900">
        {session.operator ? adminContent.signedInAs(session.operator.email, session.operator.role) : session.token}
      </p>
      <TableRegion
        caption={copy.passkeys}
        className="mt-4"
        columns={[
          { label: copy.passkeyColumns.name },
          { label: copy.passkeyColumns.created },
          { label: copy.passkeyColumns.used },
          { label: copy.passkeyColumns.actions },
        ]}
        empty={passkeys && passkeys.length === 0 ? copy.noPasskeys : null}
      >
        {passkeys?.map((passkey) => (
          <tr key={passkey.id} className="border-t border-stone-200">
            <th scope="row" className={`${td} font-medium break-all`}>
              {passkey.name}
            </th>
            <td className={td}>{when(passkey.created_at)}</td>
            <td className={td}>{ago(passkey.last_used_at)}</td>
            <td className={td}>
              <Button variant="outline" size="sm" aria-label={copy.removeLabel(passkey.name)} onClick={() => void remove(passkey)}>
                {copy.remove}
              </Button>
            </td>
          </tr>
        ))}
      </TableRegion>
      <form onSubmit={(event) => void add(event)} className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="passkey-name" className="block text-sm text-stone-700">
            {copy.passkeyName}
          </label>
          <Input id="passkey-name" name="name" maxLength={60} placeholder={adminContent.setup.passkeyNamePlaceholder} className="mt-1" />
        </div>
        <Button type="submit">{copy.addPasskey}</Button>
      </form>
      <ActionOutcome notice={notice} problem={problem} />
    </section>
  )
}
