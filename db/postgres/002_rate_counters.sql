-- Fixed-window counters of the per-IP limits and the admin lockout, shared by every instance.
-- UNLOGGED: no WAL, so counting costs no fsync; after a crash of the database they start at zero.
CREATE UNLOGGED TABLE rate_counters (
  key         text PRIMARY KEY,
  hits        integer NOT NULL,
  window_ends timestamptz NOT NULL
);
