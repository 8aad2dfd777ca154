// Who is signed in, and what the page may show them: every view reads it from here.
import { createContext, useContext } from 'react'
import type { Permission, SessionInfo } from '../../contract/team'
import type { AdminApi } from './api'

export interface AdminSession {
  api: AdminApi
  session: SessionInfo
  can: (permission: Permission) => boolean
  /** A failed call: a 401 has already signed the page out; anything else says so on the page. */
  onFailure: (failure: unknown) => void
}

export const SessionContext = createContext<AdminSession | null>(null)

export function useAdmin(): AdminSession {
  const admin = useContext(SessionContext)
  if (!admin) throw new Error('useAdmin outside a signed-in page')
  return admin
}
