// The breeds' targets, for those who may change settings: the default every breed takes, studs and
// dams. The breeds with a target of their own keep it (set through the API).
import { type FormEvent, useState } from 'react'
import { type BreedTargets, MAX_BREED_TARGET } from '../../../../contract/breed-meters'
import { Button } from '../../../components/ui/button'
import type { AdminApi } from '../../api'
import { adminContent } from '../../content'
import { useAction, useLoaded } from '../../hooks'
import { ActionOutcome } from '../../outcome'
import { asTyped, BelowPublicNote, DefaultTargetFields } from '../../target-input'
import { useAdmin } from '../../session'

const copy = adminContent.breeds

const loadTargets = (api: AdminApi) => api.breedTargets()
/** The two numbers of the default target, in the form's order. */
const SIDES = ['studs', 'dams'] as const

/**
 * The form, made again when the saved targets change; its outcome is kept by the panel, which a
 * form made again would forget.
 */
function TargetsForm({ api, targets, act }: { api: AdminApi; targets: BreedTargets; act: ReturnType<typeof useAction> }) {
  const [fallback, setFallback] = useState({ studs: String(targets.default.studs), dams: String(targets.default.dams) })
  const own = Object.keys(targets.breeds).length

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const body = { default: { studs: asTyped(fallback.studs), dams: asTyped(fallback.dams) }, breeds: targets.breeds }
    void act.act(async () => void (await api.setBreedTargets(body as BreedTargets)), copy.saved)
  }

  return (
    <form onSubmit={save}>
      <DefaultTargetFields
        legend={copy.defaultRow}
        names={SIDES}
        idPrefix="breed-target-"
        labels={copy}
        values={fallback}
        max={MAX_BREED_TARGET}
        onChange={setFallback}
      />
      <BelowPublicNote typed={Object.values(fallback)} text={copy.belowPublic} />
      {own > 0 ? <p className="mt-3 text-sm text-stone-700">{copy.ownTargets(own)}</p> : null}
      <Button type="submit" className="mt-4">
        {copy.save}
      </Button>
      <ActionOutcome notice={act.notice} problem={act.problem} />
    </form>
  )
}

/** Saving asks for the meters again (`onSaved`): their targets and readiness change with it. */
export function BreedTargetsPanel({ onSaved }: { onSaved: () => void }) {
  const { api } = useAdmin()
  const { data: targets, reload } = useLoaded(loadTargets)
  // A refusal (400) names what is wrong; the targets and the meters are loaded again after a save.
  const saved = useAction(() => {
    reload()
    onSaved()
  }, [400])
  return (
    <section aria-labelledby="breed-targets-heading" className="min-w-0 self-start rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="breed-targets-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.targets}
      </h2>
      <p className="mt-2 text-sm text-stone-700">{copy.targetsIntro}</p>
      {targets ? <TargetsForm key={JSON.stringify(targets)} api={api} targets={targets} act={saved} /> : null}
    </section>
  )
}
