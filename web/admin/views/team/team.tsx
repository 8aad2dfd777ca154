// The team, for owners: operators with their roles (changed or disabled here), invitations by
// mail, and API tokens for the command line and scripts (each shown once).
import { type FormEvent, useState } from 'react'
import { type Locale, LOCALES } from '../../../../contract/locales'
import { OPERATOR_ROLES, type OperatorRole, TOKEN_ROLES, type TokenRole } from '../../../../contract/team'
import { ownName } from '../../language-menu'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import type { AdminApi } from '../../api'
import { useAction, useLoaded } from '../../hooks'
import { adminContent } from '../../content'
import { useAdmin } from '../../session'
import { TableRegion, td } from '../../table'
import { ActionOutcome } from '../../outcome'

const copy = adminContent.team
const format = adminContent.format
const when = (iso: string | null) => (iso ? format.dateTime(iso) : copy.never)
/** A last use: how long ago it was (its moment beside, for a hover). */
const ago = (iso: string | null) =>
  iso ? (
    <time dateTime={iso} title={format.dateTime(iso)}>
      {format.ago(iso)}
    </time>
  ) : (
    copy.never
  )
/** A column shown from sm up; below, its words go under the address. */
const wide = 'hidden sm:table-cell'
const select =
  'h-9 rounded-md border border-stone-300 bg-white px-2 text-sm text-stone-900 focus-visible:ring-4 focus-visible:ring-brand-200 focus-visible:outline-none'

const loadTeam = (api: AdminApi) => Promise.all([api.team(), api.tokens()])
/** Refusals whose reason is said beside the form: a wrong field (400), a conflict such as the last owner (409). */
const REFUSALS_SAID = [400, 409] as const

export function TeamView() {
  const { api, session } = useAdmin()
  const { data, reload } = useLoaded(loadTeam)
  const [team, tokens] = data ?? [null, []]
  const { notice, problem, act: change } = useAction(reload, REFUSALS_SAID)
  const [newToken, setNewToken] = useState('')

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const email = String(data.get('email') ?? '')
    await change(
      () => api.invite(email, String(data.get('role')) as OperatorRole, String(data.get('locale')) as Locale),
      copy.invited(email),
    )
    form.reset()
  }

  async function addToken(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const expires = String(data.get('expires') ?? '')
    await change(async () => {
      const made = await api.addToken({
        name: String(data.get('name') ?? ''),
        role: String(data.get('role')) as TokenRole,
        ...(expires ? { expiresAt: `${expires}T00:00:00Z` } : {}),
      })
      setNewToken(made.token)
      form.reset()
    }, '')
  }

  const me = session.operator?.id
  return (
    <section aria-labelledby="team-heading" className="rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="team-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.heading}
      </h2>
      <ActionOutcome notice={notice} problem={problem} />
      <TableRegion
        caption={copy.operatorsCaption}
        className="mt-2"
        columns={[
          { label: copy.columns.email },
          { label: copy.columns.name, className: wide },
          { label: copy.columns.role },
          { label: copy.columns.passkeys, numeric: true, className: wide },
          { label: copy.columns.status, className: wide },
          { label: copy.columns.actions },
        ]}
      >
        {team?.operators.map((operator) => (
          <tr key={operator.id} className="border-t border-stone-200">
            <th scope="row" className={`${td} font-medium break-all`}>
              {operator.email} {operator.id === me ? <span className="font-normal text-stone-600">{copy.you}</span> : null}
              {/* On a phone, name, passkeys and status go under the address. */}
              <span className="mt-0.5 block text-xs font-normal break-normal text-stone-600 sm:hidden">
                {[operator.name, copy.passkeyCount(operator.passkeys), operator.disabled ? copy.disabled : copy.active]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </th>
            <td className={`${td} ${wide}`}>{operator.name}</td>
            <td className={td}>
              <select
                aria-label={copy.roleOf(operator.email)}
                className={select}
                value={operator.role}
                onChange={(event) =>
                  void change(() => api.changeOperator(operator.id, { role: event.target.value as OperatorRole }), copy.changed)
                }
              >
                {OPERATOR_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {copy.roleNames[role]}
                  </option>
                ))}
              </select>
            </td>
            <td className={`${td} ${wide} text-right`}>{operator.passkeys}</td>
            <td className={`${td} ${wide}`}>{operator.disabled ? copy.disabled : copy.active}</td>
            <td className={td}>
              {operator.disabled ? (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={copy.enableLabel(operator.email)}
                  onClick={() => void change(() => api.changeOperator(operator.id, { disabled: false }), copy.changed)}
                >
                  {copy.enable}
                </Button>
              ) : (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={copy.disableLabel(operator.email)}
                  onClick={() => {
                    if (window.confirm(copy.confirmDisable(operator.email)))
                      void change(() => api.changeOperator(operator.id, { disabled: true }), copy.changed)
                  }}
                >
                  {copy.disable}
                </Button>
              )}
            </td>
          </tr>
        ))}
      </TableRegion>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <form onSubmit={(event) => void invite(event)} aria-labelledby="invite-heading" className="grid content-start gap-3">
          <h3 id="invite-heading" className="font-semibold text-stone-900">
            {copy.invite}
          </h3>
          <label htmlFor="invite-email" className="text-sm text-stone-700">
            {copy.inviteEmail}
          </label>
          <Input id="invite-email" name="email" type="email" required maxLength={254} />
          <fieldset>
            <legend className="text-sm text-stone-700">{copy.inviteRole}</legend>
            <div className="mt-1 grid gap-1">
              {OPERATOR_ROLES.map((role) => (
                <label key={role} className="flex items-start gap-2 text-sm text-stone-900">
                  <input
                    type="radio"
                    name="role"
                    value={role}
                    defaultChecked={role === 'viewer'}
                    className="mt-0.5 size-4 accent-brand-700"
                  />
                  {copy.roles[role]}
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <label htmlFor="invite-locale" className="block text-sm text-stone-700">
              {copy.inviteLanguage}
            </label>
            {/* The invitation's mail and the invitee's first language: the inviter's unless chosen. */}
            <select id="invite-locale" name="locale" defaultValue={adminContent.locale} className={`mt-1 ${select}`}>
              {LOCALES.map((locale) => (
                <option key={locale} value={locale} lang={locale}>
                  {ownName(locale)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <Button type="submit">{copy.sendInvite}</Button>
          </div>
        </form>
        <TableRegion
          caption={copy.invitations}
          framed={false}
          className="self-start"
          columns={[
            { label: copy.invitationColumns.email },
            { label: copy.invitationColumns.role },
            { label: copy.invitationColumns.expires, className: wide },
            { label: copy.invitationColumns.actions },
          ]}
          empty={team && team.invitations.length === 0 ? copy.noInvitations : null}
        >
          {team?.invitations.map((invitation) => (
            <tr key={invitation.id} className="border-t border-stone-200">
              <th scope="row" className={`${td} font-medium break-all`}>
                {invitation.email}
              </th>
              <td className={td}>{copy.roleNames[invitation.role]}</td>
              <td className={`${td} ${wide}`}>{when(invitation.expires_at)}</td>
              <td className={td}>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={copy.revokeInvitationLabel(invitation.email)}
                  onClick={() => {
                    if (window.confirm(copy.confirmRevokeInvitation(invitation.email)))
                      void change(() => api.revokeInvitation(invitation.id), copy.invitationRevoked(invitation.email))
                  }}
                >
                  {copy.revoke}
                </Button>
              </td>
            </tr>
          ))}
        </TableRegion>
      </div>

      <h3 className="mt-8 font-semibold text-stone-900">{copy.tokens}</h3>
      <p className="mt-1 text-sm text-stone-700">{copy.tokensIntro}</p>
      <TableRegion
        caption={copy.tokens}
        className="mt-3"
        columns={[
          { label: copy.tokenColumns.name },
          { label: copy.tokenColumns.role },
          { label: copy.tokenColumns.created },
          { label: copy.tokenColumns.expires },
          { label: copy.tokenColumns.used },
          { label: copy.tokenColumns.actions },
        ]}
        empty={tokens.length === 0 ? copy.noTokens : null}
      >
        {tokens.map((token) => (
          <tr key={token.id} className="border-t border-stone-200">
            <th scope="row" className={`${td} font-medium break-all`}>
              {token.name}
            </th>
            <td className={td}>{copy.tokenRoles[token.role]}</td>
            <td className={td}>{when(token.created_at)}</td>
            <td className={td}>{when(token.expires_at)}</td>
            <td className={td}>{ago(token.last_used_at)}</td>
            <td className={td}>
              {token.revoked ? (
                copy.revoked
              ) : (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={copy.revokeLabel(token.name)}
                  onClick={() => {
                    if (window.confirm(copy.confirmRevoke(token.name))) void change(() => api.revokeToken(token.id), copy.changed)
                  }}
                >
                  {copy.revoke}
                </Button>
              )}
            </td>
          </tr>
        ))}
      </TableRegion>
      <form onSubmit={(event) => void addToken(event)} aria-label={copy.addToken} className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="token-name" className="block text-sm text-stone-700">
            {copy.tokenName}
          </label>
          <Input id="token-name" name="name" required maxLength={60} className="mt-1" />
        </div>
        <div>
          <label htmlFor="token-role" className="block text-sm text-stone-700">
            {copy.tokenRole}
          </label>
          <select id="token-role" name="role" defaultValue="viewer" className={`mt-1 ${select}`}>
            {TOKEN_ROLES.map((role) => (
              <option key={role} value={role}>
                {copy.tokenRoles[role]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="token-expires" className="block text-sm text-stone-700">
            {copy.tokenExpires}
          </label>
          <Input id="token-expires" name="expires" type="date" className="mt-1" />
        </div>
        <Button type="submit">{copy.addToken}</Button>
      </form>
      {newToken ? (
        <div className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4">
          <label htmlFor="new-token" className="block text-sm font-semibold text-stone-900">
            {copy.newToken}
          </label>
          <Input id="new-token" readOnly value={newToken} className="mt-2 font-mono" onFocus={(event) => event.currentTarget.select()} />
        </div>
      ) : null}
    </section>
  )
}
