/**
 * How long a test waits for an outcome before it fails (a mail, a webhook's delivery, a server's
 * start, a link in a mail, a locator or a navigation in Chromium): a minute, under each test's own
 * 120 s (vitest.config.ts). A wait ends when what it waits for comes, so a passing run is no slower;
 * a fresh clone's CI runs the browser layer beside Node 26's API layer on two cores, several times
 * slower than a quiet machine.
 */
export const OUTCOME_WAIT_MS = 60_000
