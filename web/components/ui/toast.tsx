// Radix Toast primitives styled the shadcn/ui way. Radix supplies the labelled region, the F8
// hotkey, swipe-to-dismiss, the display timer and pausing it on hover and focus.
import * as ToastPrimitives from '@radix-ui/react-toast'
import { cva, type VariantProps } from 'class-variance-authority'
import { X } from 'lucide'
import { SvgIcon } from '../svg-icon'
import type { ComponentProps } from 'react'
import { cn } from '../../lib/cn'

export const ToastProvider = ToastPrimitives.Provider

export function ToastViewport({ className, ...props }: ComponentProps<typeof ToastPrimitives.Viewport>) {
  return (
    <ToastPrimitives.Viewport
      className={cn(
        'fixed top-0 right-0 z-50 m-0 flex max-h-screen w-full list-none flex-col gap-2 p-4 outline-none sm:top-auto sm:bottom-0 sm:max-w-[420px]',
        className,
      )}
      {...props}
    />
  )
}

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-2xl border p-5 pr-10 shadow-xl transition-transform data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out data-[swipe=end]:animate-toast-swipe-out',
  {
    variants: {
      variant: {
        default: 'border-stone-200 dark:border-stone-800 bg-white dark:bg-stone-900 text-stone-900 dark:text-stone-50',
        destructive: 'border-red-800 bg-red-700 text-white',
      },
    },
    defaultVariants: { variant: 'default' },
  },
)

type ToastProps = ComponentProps<typeof ToastPrimitives.Root> & VariantProps<typeof toastVariants>

export function Toast({ className, variant, ...props }: ToastProps) {
  const name = variant ?? 'default'
  return <ToastPrimitives.Root data-variant={name} className={cn(toastVariants({ variant }), className)} {...props} />
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof ToastPrimitives.Title>) {
  return <ToastPrimitives.Title className={cn('text-base font-semibold', className)} {...props} />
}

export function ToastDescription({ className, ...props }: ComponentProps<typeof ToastPrimitives.Description>) {
  return <ToastPrimitives.Description className={cn('mt-1 text-sm opacity-90', className)} {...props} />
}

export function ToastClose({ className, label, ...props }: ComponentProps<typeof ToastPrimitives.Close> & { label: string }) {
  return (
    <ToastPrimitives.Close
      aria-label={label}
      className={cn(
        'absolute top-3 right-3 rounded-md p-1 opacity-70 transition-opacity hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-current',
        className,
      )}
      {...props}
    >
      <SvgIcon icon={X} className="size-4" />
    </ToastPrimitives.Close>
  )
}
