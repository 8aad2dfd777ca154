// Who is waiting: the demand map and each country's launch meter, from one answer of the API.
// Figures for every role; the targets for those who may change settings.
import type { AdminApi } from '../../api'
import { useLoaded } from '../../hooks'
import { DemandMap } from './demand-map'
import { LaunchPanel } from './launch-meters'

const loadSegments = (api: AdminApi) => api.segments()

export function DemandView() {
  const { data: segments, reload } = useLoaded(loadSegments)
  return (
    <>
      <DemandMap segments={segments} />
      <LaunchPanel segments={segments} onSaved={reload} />
    </>
  )
}
