// Under the composer's "People an import brought in": that they never confirmed, and the basis
// each import recorded for holding them (issue 51), for those who may see the imports.
import { useCallback } from 'react'
import type { AdminApi } from '../../api'
import { adminContent } from '../../content'
import { useLoaded } from '../../hooks'
import { useAdmin } from '../../session'

const text = adminContent.imports

const subscribed = async (api: AdminApi) => (await api.imports()).filter((item) => item.mode === 'subscribe' && item.added > 0)

export function ImportedNote() {
  const { can } = useAdmin()
  const allowed = can('signups:import')
  const load = useCallback((api: AdminApi) => (allowed ? subscribed(api) : Promise.resolve([])), [allowed])
  const { data } = useLoaded(load)
  return (
    <div className="mt-1 text-sm text-stone-700">
      <p>{text.composer}</p>
      {data && data.length === 0 ? <p>{text.composerNone}</p> : null}
      <ul className="mt-1 list-disc pl-5">
        {(data ?? []).map((item) => (
          <li key={item.id}>{text.composerBasis(item.label, item.id, item.basis, item.added)}</li>
        ))}
      </ul>
    </div>
  )
}
