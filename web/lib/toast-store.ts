// The only toast state of the page. Radix renders, times, swipes and focuses the toasts; this
// store decides which toast exists. State is an array replaced on every change, never mutated,
// so `useSyncExternalStore` sees each change by identity.

/** docs/requirements.md#toasts: at most one toast is shown; a new one replaces the one on screen. */
export const TOAST_LIMIT = 1
/** docs/requirements.md#toasts: how long a toast shows unless it asks otherwise. Given to Radix's provider. */
export const DEFAULT_TOAST_MS = 5000
/** docs/requirements.md#the-waitlist-form: the waitlist toasts show for 4 seconds. */
export const WAITLIST_TOAST_MS = 4000
/** A closed toast stays in the list this long so Radix can play its exit animation. */
export const REMOVE_AFTER_CLOSE_MS = 1000

export type ToastVariant = 'default' | 'destructive'

/** Words of the description that are a link (the support address as `mailto:`). */
export interface ToastLink {
  text: string
  href: string
}

export interface ToastInput {
  title?: string
  description?: string
  /** Made a link where its text first appears in the description; the words stay the same. */
  link?: ToastLink
  variant?: ToastVariant
  /** Milliseconds; Radix's provider default (DEFAULT_TOAST_MS) when absent. */
  duration?: number
}

export interface ToastState extends ToastInput {
  id: string
  open: boolean
}

export interface ToastHandle {
  id: string
  update: (patch: ToastInput) => void
  dismiss: () => void
}

type Listener = () => void

const EMPTY: readonly ToastState[] = []
let toasts: readonly ToastState[] = EMPTY
let counter = 0
const listeners = new Set<Listener>()
const removals = new Map<string, ReturnType<typeof setTimeout>>()

function setToasts(next: readonly ToastState[]): void {
  toasts = next
  for (const listener of listeners) listener()
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function getSnapshot(): readonly ToastState[] {
  return toasts
}

/** The prerender and hydration see no toast: one shared empty array keeps the snapshot stable. */
export function getServerSnapshot(): readonly ToastState[] {
  return EMPTY
}

export function toast(input: ToastInput): ToastHandle {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER
  const id = String(counter)
  const replaced = [{ ...input, id, open: true }, ...toasts]
  for (const dropped of replaced.slice(TOAST_LIMIT)) cancelRemoval(dropped.id)
  setToasts(replaced.slice(0, TOAST_LIMIT))
  return { id, update: (patch) => updateToast(id, patch), dismiss: () => dismissToast(id) }
}

export function updateToast(id: string, patch: ToastInput): void {
  setToasts(toasts.map((t) => (t.id === id ? { ...t, ...patch } : t)))
}

/** Closes one toast, or every toast when no id is given; it is removed after its exit animation. */
export function dismissToast(id?: string): void {
  const closing = toasts.filter((t) => (id === undefined || t.id === id) && t.open)
  if (closing.length === 0) return
  for (const t of closing) scheduleRemoval(t.id)
  setToasts(toasts.map((t) => (closing.includes(t) ? { ...t, open: false } : t)))
}

function scheduleRemoval(id: string): void {
  if (removals.has(id)) return
  removals.set(
    id,
    setTimeout(() => {
      removals.delete(id)
      setToasts(toasts.filter((t) => t.id !== id))
    }, REMOVE_AFTER_CLOSE_MS),
  )
}

function cancelRemoval(id: string): void {
  const timer = removals.get(id)
  if (timer !== undefined) clearTimeout(timer)
  removals.delete(id)
}
