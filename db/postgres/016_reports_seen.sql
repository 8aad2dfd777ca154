-- What the providers' reports must not bring twice (as db/sqlite/016_reports_seen.sql says).
CREATE TABLE reports_seen (
  key        text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX reports_seen_expiry ON reports_seen (expires_at);
