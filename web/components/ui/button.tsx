import { cva, type VariantProps } from 'class-variance-authority'
import type { ComponentProps } from 'react'
import { cn } from '../../lib/cn'

export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 text-center rounded-xl font-semibold transition-colors focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-brand-300 disabled:cursor-not-allowed disabled:opacity-70',
  {
    variants: {
      variant: {
        default: 'bg-brand-700 text-white shadow-sm hover:bg-brand-800',
        inverse: 'bg-stone-950 text-white shadow-sm hover:bg-black',
        /** For what cannot be undone. */
        danger: 'bg-red-700 text-white shadow-sm hover:bg-red-800',
        outline:
          'border border-stone-300 dark:border-stone-600 bg-white dark:bg-stone-900 text-stone-900 dark:text-stone-50 hover:bg-stone-100 dark:hover:bg-stone-800',
        /** Colour comes from the caller: a link sits on light and dark backgrounds alike. */
        link: 'underline-offset-4 hover:underline',
      },
      size: {
        // A minimum height, not a fixed one: a long label (a longer language) wraps inside the button.
        default: 'min-h-12 px-6 py-2 text-base',
        sm: 'min-h-9 px-3 py-1 text-sm',
        inline: 'h-auto p-0 text-base',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
)

export type ButtonProps = ComponentProps<'button'> & VariantProps<typeof buttonVariants>

export function Button({ className, variant, size, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={cn(buttonVariants({ variant, size }), className)} {...props} />
}
