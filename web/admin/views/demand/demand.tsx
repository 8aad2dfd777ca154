// Who is waiting: the demand map and each country's launch meter, from one answer of the API.
// Figures for every role; the targets for those who may change settings. The map may be narrowed
// to one breed's people; the meters and inviters always count everyone.
import { useCallback, useState } from 'react'
import type { AdminApi } from '../../api'
import { useLoaded } from '../../hooks'
import { BreedSelect, breedName, useBreedChoices } from './breed-select'
import { DemandMap } from './demand-map'
import { LaunchPanel } from './launch-meters'

export function DemandView() {
  const [breed, setBreed] = useState('')
  const choices = useBreedChoices()
  // A new breed is a new load: useLoaded asks again and drops an answer for the breed before. The
  // answer keeps its breed, so the words above the map never name one the numbers are not for.
  const load = useCallback(async (api: AdminApi) => ({ breed, segments: await api.segments(breed || undefined) }), [breed])
  const { data, reload } = useLoaded(load)
  const segments = data?.segments ?? null
  return (
    <>
      <DemandMap
        segments={segments}
        breed={data?.breed ? breedName(choices, data.breed) : null}
        filter={<BreedSelect id="demand-breed" choices={choices} value={breed} onChange={(event) => setBreed(event.target.value)} />}
      />
      <LaunchPanel segments={segments} onSaved={reload} />
    </>
  )
}
