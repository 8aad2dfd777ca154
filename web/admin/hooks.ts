// What the admin views share: loading what a view shows (again after a change), and running a
// change with its outcome said beside the form.
import { useCallback, useEffect, useRef, useState } from 'react'
import { AdminApiError, type AdminApi } from './api'
import { adminContent } from './content'
import { useAdmin } from './session'

/**
 * What `load` answers, loaded when the view opens and again after `reload()`; an answer that comes
 * after the view has moved on is dropped, a failure goes to the page. `load` must be stable (a
 * function of the module, or one made with useCallback).
 */
export function useLoaded<T>(load: (api: AdminApi) => Promise<T>): { data: T | null; reload: () => void } {
  const { api, onFailure } = useAdmin()
  const [data, setData] = useState<T | null>(null)
  const [version, setVersion] = useState(0)
  const reload = useCallback(() => setVersion((v) => v + 1), [])
  useEffect(() => {
    let current = true
    load(api).then(
      (fresh) => current && setData(() => fresh),
      (failure: unknown) => current && onFailure(failure),
    )
    return () => {
      current = false
    }
  }, [api, onFailure, load, version])
  return { data, reload }
}

/** How long a search box waits after the last key before it asks. */
export const SEARCH_PAUSE_MS = 250

/**
 * A list that follows a search box: loaded at once when the view opens and after `reload()` (a
 * change), else after a pause in typing, so a word typed is one request; a newer search cancels the
 * one under way, so an older answer never replaces a newer one. A failure goes to the page.
 * `load` and `onLoaded` must be stable.
 */
export function useSearched<T>(
  search: string,
  load: (api: AdminApi, search: string, signal: AbortSignal) => Promise<T>,
  onLoaded: (answer: T) => void,
): () => void {
  const { api, onFailure } = useAdmin()
  const [version, setVersion] = useState(0)
  const atOnce = useRef(true)
  useEffect(() => {
    const pause = atOnce.current ? 0 : SEARCH_PAUSE_MS
    atOnce.current = false
    const controller = new AbortController()
    const timer = setTimeout(() => {
      load(api, search, controller.signal).then(onLoaded, (failure: unknown) => {
        if (!controller.signal.aborted) onFailure(failure)
      })
    }, pause)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [api, onFailure, load, onLoaded, search, version])
  return useCallback(() => {
    atOnce.current = true
    setVersion((v) => v + 1)
  }, [])
}

/**
 * Runs a change: its notice on success; a refusal with a reason (one of `said`, such as 400 or
 * 409) beside the form; any other failure to the page. What the view shows is loaded again after.
 */
export function useAction(reload: () => void, said: readonly number[]) {
  const { onFailure } = useAdmin()
  const [notice, setNotice] = useState('')
  const [problem, setProblem] = useState('')
  const act = async (run: () => Promise<void>, done = '') => {
    setNotice('')
    setProblem('')
    try {
      await run()
      setNotice(done)
    } catch (failure) {
      if (failure instanceof AdminApiError && said.includes(failure.status)) setProblem(adminContent.refusal(failure))
      else onFailure(failure)
    } finally {
      reload()
    }
  }
  return { notice, problem, act, setNotice }
}
