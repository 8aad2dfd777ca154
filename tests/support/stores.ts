// The stores every contract and API suite runs against. PostgreSQL's suites are skipped, and say
// so, when TEST_DATABASE_URL is not set.
import { postgresAvailable } from './postgres'

export type StoreKind = 'sqlite' | 'postgres'

export const STORES: { kind: StoreKind; available: boolean }[] = [
  { kind: 'sqlite', available: true },
  { kind: 'postgres', available: postgresAvailable },
]
