-- Imports (docs/decisions/026-import.md): a CSV of addresses the team already holds, brought in as
-- sign-ups that were sent nothing, or as suppressions. One import runs at a time for the whole
-- deployment (the unique index on the running row), held by its worker's lease: a worker that dies
-- stops renewing it, and the import is marked failed once it runs out, its committed prefix kept.
CREATE TABLE imports (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  status          TEXT NOT NULL DEFAULT 'running' CONSTRAINT imports_status CHECK (status IN ('running', 'done', 'failed', 'cancelled')),
  mode            TEXT NOT NULL CONSTRAINT imports_mode CHECK (mode IN ('subscribe', 'suppress')),
  existing        TEXT NOT NULL DEFAULT 'skip' CONSTRAINT imports_existing CHECK (existing IN ('skip', 'fill')),
  -- Why Kennect may hold these addresses, in the operator's words (required to subscribe).
  basis           TEXT NOT NULL DEFAULT '' CONSTRAINT imports_basis CHECK (length(basis) <= 500),
  label           TEXT CONSTRAINT imports_label CHECK (length(label) <= 100),
  sha256          TEXT NOT NULL,
  bytes           INTEGER NOT NULL,
  ignored_columns TEXT NOT NULL DEFAULT '[]' CONSTRAINT imports_ignored CHECK (json_valid(ignored_columns)),
  -- Who started it, as the audit log names them (no reference: the log keeps who it was).
  actor_id        INTEGER,
  actor           TEXT NOT NULL,
  -- The data records, once the file was read through; the counts rise with each batch committed.
  records         INTEGER,
  -- How far into the file the committed batches reach: the progress bar (the records are not known before the end).
  read_bytes      INTEGER NOT NULL DEFAULT 0,
  processed       INTEGER NOT NULL DEFAULT 0,
  added           INTEGER NOT NULL DEFAULT 0,
  filled          INTEGER NOT NULL DEFAULT 0,
  skipped         INTEGER NOT NULL DEFAULT 0,
  failed          INTEGER NOT NULL DEFAULT 0,
  started_at      TEXT NOT NULL,
  finished_at     TEXT,
  lease_until     TEXT,
  error           TEXT
);
CREATE UNIQUE INDEX imports_one_running ON imports (status) WHERE status = 'running';

-- Every record not added or filled: its line (the file's own, 1-based, the header being line 1),
-- the address as written, and why. Committed with the batch it belongs to.
CREATE TABLE import_errors (
  import_id INTEGER NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
  line      INTEGER NOT NULL,
  email     TEXT NOT NULL,
  reason    TEXT NOT NULL,
  PRIMARY KEY (import_id, line)
) WITHOUT ROWID;

-- An imported sign-up points at its import: its basis and time are the import's.
ALTER TABLE waitlist ADD COLUMN import_id INTEGER REFERENCES imports (id);
CREATE INDEX waitlist_import ON waitlist (import_id) WHERE import_id IS NOT NULL;

-- ── No webhook per row ───────────────────────────────────────────────────────────────────────
-- An import's batch holds a row here for the length of its transaction (inserted first, deleted
-- before the commit, so no other connection ever sees one): while it does, no endpoint wants any
-- sign-up event, and the triggers that read webhook_wanted write none. `import.completed` says it all.
CREATE TABLE import_writing (import_id INTEGER PRIMARY KEY);
DROP VIEW webhook_wanted;
CREATE VIEW webhook_wanted AS
  SELECT DISTINCT json_each.value AS type FROM webhook_endpoints, json_each(webhook_endpoints.events)
  WHERE enabled = 1 AND NOT EXISTS (SELECT 1 FROM import_writing);

CREATE TRIGGER webhook_import_completed AFTER UPDATE OF status ON imports
WHEN OLD.status = 'running' AND NEW.status <> 'running'
  AND EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'import.completed')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'import.completed', NULL,
    json_object('id', NEW.id, 'status', NEW.status, 'mode', NEW.mode, 'rows', NEW.records, 'processed', NEW.processed,
      'added', NEW.added, 'filled', NEW.filled, 'skipped', NEW.skipped, 'failed', NEW.failed));
END;

-- ── The people tallies: imported and not confirmed is a standing of its own ──────────────────
-- (db/sqlite/017): `imported` beside waiting, unconfirmed, stopped and stopped-unconfirmed, so the
-- demand map counts them apart from those who joined themselves. Once confirmed, they wait as anyone.
DROP TRIGGER waitlist_tally_insert;
DROP TRIGGER waitlist_tally_delete;
DROP TRIGGER waitlist_tally_update;

CREATE TRIGGER waitlist_tally_insert AFTER INSERT ON waitlist
BEGIN
  INSERT INTO tallies (kind, key, field, n) VALUES
    ('people', coalesce(NEW.role, '') || '|' || coalesce(NEW.country, '') || '|' || NEW.locale || '|' || coalesce(NEW.platform, '') || '|' ||
      CASE WHEN NEW.unsubscribed_at IS NOT NULL THEN CASE WHEN NEW.confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
        WHEN NEW.confirmed_at IS NOT NULL THEN 'waiting' WHEN NEW.import_id IS NOT NULL THEN 'imported' ELSE 'unconfirmed' END, 'n', 1),
    ('signups-day', substr(NEW.created_at, 1, 10), 'signups', 1),
    ('signups-source', coalesce(NEW.utm_source, NEW.referrer, ''), 'signups', 1)
  ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER waitlist_tally_delete AFTER DELETE ON waitlist
BEGIN
  UPDATE tallies SET n = n - 1 WHERE field IN ('n', 'signups') AND (kind, key) IN (VALUES
    ('people', coalesce(OLD.role, '') || '|' || coalesce(OLD.country, '') || '|' || OLD.locale || '|' || coalesce(OLD.platform, '') || '|' ||
      CASE WHEN OLD.unsubscribed_at IS NOT NULL THEN CASE WHEN OLD.confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
        WHEN OLD.confirmed_at IS NOT NULL THEN 'waiting' WHEN OLD.import_id IS NOT NULL THEN 'imported' ELSE 'unconfirmed' END),
    ('signups-day', substr(OLD.created_at, 1, 10)),
    ('signups-source', coalesce(OLD.utm_source, OLD.referrer, '')));
END;

CREATE TRIGGER waitlist_tally_update AFTER UPDATE OF role, country, locale, platform, confirmed_at, unsubscribed_at ON waitlist
WHEN OLD.role IS NOT NEW.role OR OLD.country IS NOT NEW.country OR OLD.locale IS NOT NEW.locale OR OLD.platform IS NOT NEW.platform
  OR (OLD.confirmed_at IS NULL) IS NOT (NEW.confirmed_at IS NULL) OR (OLD.unsubscribed_at IS NULL) IS NOT (NEW.unsubscribed_at IS NULL)
BEGIN
  UPDATE tallies SET n = n - 1 WHERE kind = 'people' AND field = 'n' AND key =
    coalesce(OLD.role, '') || '|' || coalesce(OLD.country, '') || '|' || OLD.locale || '|' || coalesce(OLD.platform, '') || '|' ||
      CASE WHEN OLD.unsubscribed_at IS NOT NULL THEN CASE WHEN OLD.confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
        WHEN OLD.confirmed_at IS NOT NULL THEN 'waiting' WHEN OLD.import_id IS NOT NULL THEN 'imported' ELSE 'unconfirmed' END;
  INSERT INTO tallies (kind, key, field, n) VALUES
    ('people', coalesce(NEW.role, '') || '|' || coalesce(NEW.country, '') || '|' || NEW.locale || '|' || coalesce(NEW.platform, '') || '|' ||
      CASE WHEN NEW.unsubscribed_at IS NOT NULL THEN CASE WHEN NEW.confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
        WHEN NEW.confirmed_at IS NOT NULL THEN 'waiting' WHEN NEW.import_id IS NOT NULL THEN 'imported' ELSE 'unconfirmed' END, 'n', 1)
  ON CONFLICT (kind, key, field) DO UPDATE SET n = n + 1;
END;

-- ── Suppressed by an import (reason `imported`) ──────────────────────────────────────────────
-- SQLite cannot change a CHECK in place: the table is made again, rows and indexes kept. The
-- trigger that names it from the sign-ups' table is made again after it.
DROP TRIGGER suppressions_forget;
CREATE TABLE suppressions_new (
  email_hash TEXT PRIMARY KEY,
  email      TEXT,
  reason     TEXT NOT NULL CONSTRAINT suppressions_reason CHECK (reason IN ('hard-bounce', 'soft-bounce', 'complaint', 'manual', 'imported')),
  at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO suppressions_new (email_hash, email, reason, at) SELECT email_hash, email, reason, at FROM suppressions;
DROP TABLE suppressions;
ALTER TABLE suppressions_new RENAME TO suppressions;
CREATE INDEX suppressions_email ON suppressions (email);
CREATE INDEX suppressions_at ON suppressions (at, email_hash);
CREATE TRIGGER suppressions_forget AFTER DELETE ON waitlist
BEGIN
  UPDATE suppressions SET email = NULL WHERE email = lower(OLD.email);
END;

-- ── Breed rows that do not count add nothing to the breed tallies ─────────────────────────────
-- (db/sqlite/014): a row of a person who is not confirmed and subscribed changes no contribution, as
-- all that person's rows share its `counted`; an import writes such rows by the thousand, and each
-- asked the view twice for nothing.
DROP TRIGGER breed_tally_before_insert;
DROP TRIGGER breed_tally_after_insert;
DROP TRIGGER breed_tally_before_delete;
DROP TRIGGER breed_tally_after_delete;
CREATE TRIGGER breed_tally_before_insert BEFORE INSERT ON signup_breeds WHEN NEW.breed IS NOT NULL AND NEW.counted = 1
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field,
      -(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END)
    FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
    WHERE c.signup_id = NEW.signup_id AND c.breed = NEW.breed
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER breed_tally_after_insert AFTER INSERT ON signup_breeds WHEN NEW.breed IS NOT NULL AND NEW.counted = 1
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field,
      CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END
    FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
    WHERE c.signup_id = NEW.signup_id AND c.breed = NEW.breed
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER breed_tally_before_delete BEFORE DELETE ON signup_breeds WHEN OLD.breed IS NOT NULL AND OLD.counted = 1
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field,
      -(CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END)
    FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
    WHERE c.signup_id = OLD.signup_id AND c.breed = OLD.breed
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER breed_tally_after_delete AFTER DELETE ON signup_breeds WHEN OLD.breed IS NOT NULL AND OLD.counted = 1
BEGIN
  INSERT INTO tallies (kind, key, field, n)
    SELECT 'breed', c.breed || '|' || c.country, f.field,
      CASE f.field WHEN 'studs' THEN c.studs WHEN 'dams' THEN c.dams WHEN 'seekers' THEN c.seekers ELSE c.profiles END
    FROM breed_contributions AS c JOIN tally_fields AS f ON f.kind = 'breed'
    WHERE c.signup_id = OLD.signup_id AND c.breed = OLD.breed
    ON CONFLICT (kind, key, field) DO UPDATE SET n = n + excluded.n;
END;
