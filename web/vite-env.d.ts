/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_PRODUCT_NAME?: string
  readonly VITE_SUPPORT_EMAIL?: string
  readonly VITE_WAITLIST_URL?: string
  readonly VITE_WAITLIST_ANON_KEY?: string
}

/** The year the page was built in, set by vite.config.ts; the footer corrects it after hydration. */
declare const __BUILD_YEAR__: number
