// The phone a sign-up uses (docs/decisions/022-into-the-app.md): its own file, so that the visitor's
// contract and the app's can both name it without importing each other.
/**
 * The phone a sign-up uses, as its join's user agent named it, or as they said on their page:
 * `other` is a desktop, or a phone of neither kind.
 */
export const PLATFORMS = ['ios', 'android', 'other'] as const
export type Platform = (typeof PLATFORMS)[number]

export const isPlatform = (value: unknown): value is Platform =>
  typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value)
