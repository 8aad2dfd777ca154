import { type ReactNode, useSyncExternalStore } from 'react'
import type { Content } from '../../content'
import { DEFAULT_TOAST_MS, dismissToast, getServerSnapshot, getSnapshot, subscribe, type ToastLink } from '../../lib/toast-store'
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast'

/** docs/requirements.md#toasts: swipe right past 50 px dismisses; F8 focuses the notification area. */
const SWIPE_THRESHOLD_PX = 50
const HOTKEY = ['F8']

export function Toaster({ content }: { content: Content['toaster'] }) {
  const toasts = useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot)
  return (
    <ToastProvider duration={DEFAULT_TOAST_MS} swipeDirection="right" swipeThreshold={SWIPE_THRESHOLD_PX}>
      {toasts.map(({ id, title, description, link, variant, duration, open }) => (
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
            {description ? <ToastDescription>{withLink(description, link)}</ToastDescription> : null}
          </div>
          <ToastClose label={content.close} />
        </Toast>
      ))}
      <ToastViewport hotkey={HOTKEY} label={content.regionLabel} />
    </ToastProvider>
  )
}

/**
 * The description, its link's words made a link (underlined: colour alone does not mark it). Not
 * draggable: a swipe that starts on it would otherwise drag the link instead of the toast.
 */
function withLink(description: string, link: ToastLink | undefined): ReactNode {
  const at = link ? description.indexOf(link.text) : -1
  if (!link || at < 0) return description
  return (
    <>
      {description.slice(0, at)}
      <a href={link.href} draggable={false} className="font-semibold underline underline-offset-2">
        {link.text}
      </a>
      {description.slice(at + link.text.length)}
    </>
  )
}
