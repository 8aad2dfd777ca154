-- What the providers' reports must not bring twice (docs/decisions/019-suppression.md): a signed
-- request's single-use key (Mailgun's token: its signature covers the token, not the events, so
-- a request seen once could otherwise come back with other events), and each event's own id for
-- as long as the provider may send it again. Kept here, not in one process's memory, so a second
-- instance or a restart knows them too; and apart from mail_events, whose rows go with a deleted
-- sign-up while its reports may still be replayed.
CREATE TABLE reports_seen (
  key        TEXT PRIMARY KEY,
  expires_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX reports_seen_expiry ON reports_seen (expires_at);
