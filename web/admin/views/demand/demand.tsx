// Who is waiting: the demand map and each country's launch meter. Figures for every role; the
// targets for those who may change settings.
import { DemandMap } from './demand-map'
import { LaunchPanel } from './launch-meters'

export function DemandView() {
  return (
    <>
      <DemandMap />
      <LaunchPanel />
    </>
  )
}
