// The names the catalogue missed, for those who may map them: each typed name with how often, and
// a field to give it a breed, by its name in any language (offered from the catalogue as it is
// typed) or its id.
import type { FormEvent } from 'react'
import { Button } from '../../../components/ui/button'
import type { AdminApi } from '../../api'
import { adminContent } from '../../content'
import { useAction, useLoaded } from '../../hooks'
import { ActionOutcome } from '../../outcome'
import { useAdmin } from '../../session'
import { BreedField, useBreedNames } from './breed-field'

const copy = adminContent.breeds

const loadUnmatched = (api: AdminApi) => api.unmatchedBreeds()

/** Mapping asks for the meters again (`onMapped`): the name's profiles count for its breed now. */
export function UnmatchedPanel({ onMapped }: { onMapped: () => void }) {
  const { api } = useAdmin()
  const { data, reload } = useLoaded(loadUnmatched)
  const names = useBreedNames()
  // A refusal says why beside the list: a breed the catalogue lacks (400), a name it knows (409).
  const mapping = useAction(() => {
    reload()
    onMapped()
  }, [400, 409])

  async function map(event: FormEvent<HTMLFormElement>, name: string) {
    event.preventDefault()
    const breed = String(new FormData(event.currentTarget).get('breed') ?? '').trim()
    // The notice names what the server did, so it is said once the answer is in.
    let answer: { breed: string; mapped: number } | undefined
    await mapping.act(async () => {
      answer = await api.mapBreed(name, breed)
    })
    if (answer)
      mapping.setNotice(copy.mapped(name, names.find((entry) => entry.id === answer?.breed)?.known ?? answer.breed, answer.mapped))
  }

  return (
    <section aria-labelledby="unmatched-heading" className="min-w-0 self-start rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="unmatched-heading" className="text-sm font-semibold text-stone-600 uppercase">
        {copy.unmatched}
      </h2>
      <p className="mt-2 text-sm text-stone-700">{copy.unmatchedIntro}</p>
      <ActionOutcome notice={mapping.notice} problem={mapping.problem} />
      {data && data.unmatched.length === 0 ? <p className="mt-2 text-stone-600">{copy.noUnmatched}</p> : null}
      <ul aria-labelledby="unmatched-heading" className="mt-2 grid max-h-[32rem] gap-3 overflow-y-auto">
        {data?.unmatched.map((entry) => (
          <li key={entry.name} className="border-t border-stone-200 pt-3">
            <form onSubmit={(event) => void map(event, entry.name)} className="flex flex-wrap items-start gap-2">
              <p className="w-full text-sm text-stone-800">
                <span className="font-medium break-words">{entry.name}</span>{' '}
                <span className="text-stone-600">({copy.typed(entry.count)})</span>
              </p>
              <BreedField names={names} label={copy.breedFor(entry.name)} />
              <Button type="submit" aria-label={copy.mapLabel(entry.name)}>
                {copy.map}
              </Button>
            </form>
          </li>
        ))}
      </ul>
    </section>
  )
}
