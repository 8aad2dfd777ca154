import { useSyncExternalStore } from 'react'
import type { Content } from '../../content'
import {
  DEFAULT_TOAST_MS,
  dismissToast,
  getServerSnapshot,
  getSnapshot,
  subscribe,
} from '../../lib/toast-store'
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast'

/** SPEC §4/§9: swipe right past 50 px dismisses; F8 focuses the notification area. */
const SWIPE_THRESHOLD_PX = 50
const HOTKEY = ['F8']

export function Toaster({ content }: { content: Content['toaster'] }) {
  const toasts = useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot)
  return (
    <ToastProvider duration={DEFAULT_TOAST_MS} swipeDirection="right" swipeThreshold={SWIPE_THRESHOLD_PX}>
      {toasts.map(({ id, title, description, variant, duration, open }) => (
        <Toast
          key={id}
          open={open}
          variant={variant}
          duration={duration}
          onOpenChange={(isOpen) => {
            if (!isOpen) dismissToast(id)
          }}
        >
          <div className="grid gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          <ToastClose label={content.close} />
        </Toast>
      ))}
      <ToastViewport hotkey={HOTKEY} label={content.regionLabel} />
    </ToastProvider>
  )
}
