// What the admin API answers (server/store/store.ts), as the page sees it.
export interface SignUp {
  id: number
  email: string
  created_at: string
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  referrer: string | null
}

export interface Stats {
  total: number
  perDay: { day: string; count: number }[]
  perSource: { source: string | null; count: number }[]
}
