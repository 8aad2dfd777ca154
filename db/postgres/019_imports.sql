-- Imports (docs/decisions/026-import.md), as db/sqlite/019_imports.sql says: the imports, their
-- error lines, the sign-ups' import, no webhook per row, `import.completed`, the people tallies'
-- `imported` standing, and the suppressions' reason `imported`.
CREATE TABLE imports (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  status          text NOT NULL DEFAULT 'running' CONSTRAINT imports_status CHECK (status IN ('running', 'done', 'failed', 'cancelled')),
  mode            text NOT NULL CONSTRAINT imports_mode CHECK (mode IN ('subscribe', 'suppress')),
  existing        text NOT NULL DEFAULT 'skip' CONSTRAINT imports_existing CHECK (existing IN ('skip', 'fill')),
  basis           text NOT NULL DEFAULT '' CONSTRAINT imports_basis CHECK (char_length(basis) <= 500),
  label           text CONSTRAINT imports_label CHECK (char_length(label) <= 100),
  sha256          text NOT NULL,
  bytes           bigint NOT NULL,
  ignored_columns jsonb NOT NULL DEFAULT '[]',
  actor_id        bigint,
  actor           text NOT NULL,
  records         integer,
  read_bytes      bigint NOT NULL DEFAULT 0,
  processed       integer NOT NULL DEFAULT 0,
  added           integer NOT NULL DEFAULT 0,
  filled          integer NOT NULL DEFAULT 0,
  skipped         integer NOT NULL DEFAULT 0,
  failed          integer NOT NULL DEFAULT 0,
  started_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz,
  lease_until     timestamptz,
  error           text
);
-- One running import for every instance of the deployment.
CREATE UNIQUE INDEX imports_one_running ON imports (status) WHERE status = 'running';

CREATE TABLE import_errors (
  import_id bigint NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
  line      integer NOT NULL,
  email     text NOT NULL,
  reason    text NOT NULL,
  PRIMARY KEY (import_id, line)
);

ALTER TABLE waitlist ADD COLUMN import_id bigint REFERENCES imports (id);
CREATE INDEX waitlist_import ON waitlist (import_id) WHERE import_id IS NOT NULL;

-- ── No webhook per row: an import's batch says so for its own transaction (SET LOCAL) ─────────
CREATE OR REPLACE FUNCTION webhook_emit(kind text, signup bigint, payload jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  event bigint;
BEGIN
  IF current_setting('kennect.importing', true) = 'on' OR NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled AND events ? kind) THEN
    RETURN;
  END IF;
  INSERT INTO webhook_events (message_id, type, signup_id, data)
    VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), kind, signup, payload) RETURNING id INTO event;
  INSERT INTO webhook_deliveries (event_id, endpoint_id) SELECT event, id FROM webhook_endpoints WHERE enabled AND events ? kind;
END $$;

CREATE FUNCTION import_completed_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit('import.completed', NULL, jsonb_build_object('id', NEW.id, 'status', NEW.status, 'mode', NEW.mode,
    'rows', NEW.records, 'processed', NEW.processed, 'added', NEW.added, 'filled', NEW.filled, 'skipped', NEW.skipped, 'failed', NEW.failed));
  RETURN NEW;
END $$;
CREATE TRIGGER import_completed_webhook AFTER UPDATE OF status ON imports
  FOR EACH ROW WHEN (OLD.status = 'running' AND NEW.status <> 'running') EXECUTE FUNCTION import_completed_webhook();

-- ── The people tallies' `imported` standing (db/postgres/017) ────────────────────────────────
CREATE OR REPLACE FUNCTION people_key(w waitlist) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(w.role, '') || '|' || coalesce(w.country, '') || '|' || w.locale || '|' || coalesce(w.platform, '') || '|' ||
    CASE WHEN w.unsubscribed_at IS NOT NULL THEN CASE WHEN w.confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
      WHEN w.confirmed_at IS NOT NULL THEN 'waiting' WHEN w.import_id IS NOT NULL THEN 'imported' ELSE 'unconfirmed' END
$$;

-- ── Suppressed by an import ──────────────────────────────────────────────────────────────────
ALTER TABLE suppressions DROP CONSTRAINT suppressions_reason,
  ADD CONSTRAINT suppressions_reason CHECK (reason IN ('hard-bounce', 'soft-bounce', 'complaint', 'manual', 'imported'));

-- ── Breed rows that do not count add nothing to the breed tallies (db/sqlite/019 says why) ─────
CREATE OR REPLACE FUNCTION signup_breeds_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.breed IS NOT NULL AND NEW.counted THEN PERFORM breed_contribution_delta(NEW.signup_id, ARRAY[NEW.breed], NULL, NEW); END IF;
    RETURN NEW;
  ELSIF TG_OP = 'DELETE' THEN
    IF OLD.breed IS NOT NULL AND OLD.counted THEN PERFORM breed_contribution_delta(OLD.signup_id, ARRAY[OLD.breed], OLD.position, NULL::signup_breeds); END IF;
    RETURN OLD;
  END IF;
  IF OLD.breed IS NOT NULL OR NEW.breed IS NOT NULL THEN
    PERFORM breed_contribution_delta(NEW.signup_id, array_remove(ARRAY[OLD.breed, NEW.breed], NULL), OLD.position, NEW);
  END IF;
  RETURN NEW;
END $$;
