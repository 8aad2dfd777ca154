// What the admin API (/admin/api) answers, as the server sends it and the admin page reads it.
// Types only; this folder imports nothing.

/** A stored sign-up. */
export interface SignUp {
  id: number
  email: string
  /** ISO 8601, UTC. */
  created_at: string
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  referrer: string | null
}

/** GET /admin/api/stats */
export interface Stats {
  total: number
  /** Sign-ups per UTC day, oldest first; days without any are left out. */
  perDay: { day: string; count: number }[]
  /** Where sign-ups came from (utm_source, else the referring host, else null), most first. */
  perSource: { source: string | null; count: number }[]
}

/** GET /admin/api/signups: one page, and the id to ask for the next one (`after`), if any. */
export interface SignupsPage {
  items: SignUp[]
  next: number | null
}
