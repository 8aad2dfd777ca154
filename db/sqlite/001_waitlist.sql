-- The waitlist: one row per address, unique without regard to letter case.
CREATE TABLE waitlist (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  email        TEXT NOT NULL,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  utm_source   TEXT,
  utm_medium   TEXT,
  utm_campaign TEXT,
  referrer     TEXT,
  CONSTRAINT waitlist_email_length CHECK (length(email) <= 254),
  CONSTRAINT waitlist_attribution_length CHECK (
    coalesce(length(utm_source), 0) <= 200 AND coalesce(length(utm_medium), 0) <= 200 AND
    coalesce(length(utm_campaign), 0) <= 200 AND coalesce(length(referrer), 0) <= 200
  )
);

CREATE UNIQUE INDEX waitlist_email_lower ON waitlist (lower(email));
CREATE INDEX waitlist_created_at ON waitlist (created_at);
