import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  dismissToast,
  getServerSnapshot,
  getSnapshot,
  REMOVE_AFTER_CLOSE_MS,
  subscribe,
  TOAST_LIMIT,
  toast,
} from '../../web/lib/toast-store'

describe('toast store', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => {
    dismissToast()
    vi.runAllTimers()
    vi.useRealTimers()
  })

  it('keeps at most one toast, and a new one replaces the old', () => {
    expect(TOAST_LIMIT).toBe(1)
    toast({ title: 'first' })
    toast({ title: 'second', variant: 'destructive' })
    const toasts = getSnapshot()
    expect(toasts).toHaveLength(1)
    expect(toasts[0]).toMatchObject({ title: 'second', variant: 'destructive', open: true })
  })

  it('replaces the state array instead of mutating it, and tells subscribers', () => {
    const seen: unknown[] = []
    const unsubscribe = subscribe(() => seen.push(getSnapshot()))
    const before = getSnapshot()
    const handle = toast({ title: 'hello' })
    handle.update({ description: 'updated' })
    unsubscribe()
    expect(seen).toHaveLength(2)
    expect(seen[0]).not.toBe(before)
    expect(seen[1]).not.toBe(seen[0])
    expect(getSnapshot()[0]).toMatchObject({ title: 'hello', description: 'updated' })
  })

  it('closes a dismissed toast first and removes it after the exit animation', () => {
    const handle = toast({ title: 'bye' })
    handle.dismiss()
    expect(getSnapshot()[0]).toMatchObject({ id: handle.id, open: false })
    vi.advanceTimersByTime(REMOVE_AFTER_CLOSE_MS - 1)
    expect(getSnapshot()).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(getSnapshot()).toHaveLength(0)
  })

  it('does not let a pending removal take away a toast shown after it', () => {
    toast({ title: 'old' }).dismiss()
    toast({ title: 'new' })
    vi.advanceTimersByTime(REMOVE_AFTER_CLOSE_MS * 2)
    expect(getSnapshot()).toEqual([expect.objectContaining({ title: 'new', open: true })])
  })

  it('gives the server render one stable empty list', () => {
    toast({ title: 'client only' })
    expect(getServerSnapshot()).toEqual([])
    expect(getServerSnapshot()).toBe(getServerSnapshot())
  })
})
