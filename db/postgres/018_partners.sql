-- Partners (docs/decisions/025-partners.md), as db/sqlite/018 does it for SQLite: the partners, the
-- partner each sign-up first joined through, its tallies (deltas, folded as every tally is:
-- db/postgres/014) and the sign-up's webhook payload naming it.

CREATE TABLE partners (
  id          serial PRIMARY KEY,
  name        text NOT NULL CONSTRAINT partners_name CHECK (length(name) BETWEEN 1 AND 100),
  key         text NOT NULL UNIQUE,
  origins     text[] NOT NULL,
  thanks_url  text,
  breed       text,
  country     text,
  disabled_at timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE waitlist ADD COLUMN partner_id integer REFERENCES partners (id) ON DELETE SET NULL;
CREATE INDEX waitlist_partner ON waitlist (partner_id) WHERE partner_id IS NOT NULL;

-- kind 'partner', key the partner's id, fields 'signups' and 'confirmed' (db/sqlite/018). Row
-- triggers with a WHEN: only a partner's sign-ups pay for them, each one delta row.
CREATE FUNCTION waitlist_partner_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.partner_id IS NOT NULL THEN
    INSERT INTO tally_deltas (kind, key, field, n)
      SELECT 'partner', OLD.partner_id::text, 'signups', -1
      UNION ALL SELECT 'partner', OLD.partner_id::text, 'confirmed', -1 WHERE OLD.confirmed_at IS NOT NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.partner_id IS NOT NULL THEN
    INSERT INTO tally_deltas (kind, key, field, n)
      SELECT 'partner', NEW.partner_id::text, 'signups', 1
      UNION ALL SELECT 'partner', NEW.partner_id::text, 'confirmed', 1 WHERE NEW.confirmed_at IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER waitlist_partner_insert AFTER INSERT ON waitlist FOR EACH ROW
  WHEN (NEW.partner_id IS NOT NULL) EXECUTE FUNCTION waitlist_partner_tally();
CREATE TRIGGER waitlist_partner_delete AFTER DELETE ON waitlist FOR EACH ROW
  WHEN (OLD.partner_id IS NOT NULL) EXECUTE FUNCTION waitlist_partner_tally();
CREATE TRIGGER waitlist_partner_update AFTER UPDATE OF partner_id, confirmed_at ON waitlist FOR EACH ROW
  WHEN (OLD.partner_id IS DISTINCT FROM NEW.partner_id
    OR (OLD.partner_id IS NOT NULL AND (OLD.confirmed_at IS NULL) <> (NEW.confirmed_at IS NULL)))
  EXECUTE FUNCTION waitlist_partner_tally();

-- The sign-up's one payload (db/postgres/014) names its partner: its id, or null.
CREATE OR REPLACE FUNCTION webhook_signup(w waitlist) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', w.id, 'role', w.role, 'country', w.country,
    'breeds', coalesce((SELECT jsonb_agg(name ORDER BY position) FROM signup_breeds WHERE signup_id = w.id), '[]'),
    'sides', coalesce((SELECT jsonb_agg(jsonb_build_object('breed', breed, 'side', side) ORDER BY position) FROM signup_breeds WHERE signup_id = w.id), '[]'),
    'locale', w.locale, 'source', coalesce(w.utm_source, w.referrer), 'partner', w.partner_id)
$$;
