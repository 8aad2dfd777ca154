import { type ClassValue, clsx } from 'clsx'

/**
 * Joins class names. Components avoid conflicting utilities (a variant per look, not an override),
 * so no merge step is needed: tailwind-merge would cost 8.5 KB of the page's script budget.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs)
}
