-- Into the app (docs/decisions/022-into-the-app.md), as db/sqlite/015 does it for SQLite: the phone
-- each sign-up uses, its app link, what became of the link, the app's own token role, and the
-- hand-off's tallies (deltas, folded as every tally is: db/postgres/014) and webhook event.

ALTER TABLE waitlist ADD COLUMN platform text CONSTRAINT waitlist_platform CHECK (platform IN ('ios', 'android', 'other'));

ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_role,
  ADD CONSTRAINT api_tokens_role CHECK (role IN ('owner', 'editor', 'viewer', 'app'));

-- One app link per sign-up (see db/sqlite/015 for why the code is kept as it is).
CREATE TABLE app_links (
  signup_id  bigint PRIMARY KEY REFERENCES waitlist (id) ON DELETE CASCADE,
  code       text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  invited_at timestamptz,
  opened_at  timestamptz,
  claimed_at timestamptz,
  claimed_by integer REFERENCES api_tokens (id) ON DELETE SET NULL
);

-- The hand-off's tallies (kinds 'app', 'app-country', 'app-breed' keyed `breed|country`; fields
-- invited, opened, claimed),
-- each step once per person when it first happened; and signup.claimed, with the sign-up's one
-- payload (webhook_signup, db/postgres/014) and when.
CREATE FUNCTION app_links_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tally_deltas (kind, key, field, n)
    SELECT k.kind, k.key, f.field, 1
    FROM (SELECT 'app' AS kind, '' AS key
          UNION ALL SELECT 'app-country', coalesce(w.country, '') FROM waitlist AS w WHERE w.id = NEW.signup_id
          UNION ALL SELECT DISTINCT 'app-breed', named.breed || '|' || coalesce(w.country, '')
            FROM signup_breeds AS named JOIN waitlist AS w ON w.id = named.signup_id
            WHERE named.signup_id = NEW.signup_id AND named.breed IS NOT NULL) AS k
      CROSS JOIN (SELECT 'invited' AS field WHERE OLD.invited_at IS NULL AND NEW.invited_at IS NOT NULL
                  UNION ALL SELECT 'opened' WHERE OLD.opened_at IS NULL AND NEW.opened_at IS NOT NULL
                  UNION ALL SELECT 'claimed' WHERE OLD.claimed_at IS NULL AND NEW.claimed_at IS NOT NULL) AS f;
  IF OLD.claimed_at IS NULL AND NEW.claimed_at IS NOT NULL THEN
    PERFORM webhook_emit('signup.claimed', NEW.signup_id,
      webhook_signup(w) || jsonb_build_object('claimedAt', to_char(NEW.claimed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
    FROM waitlist AS w WHERE w.id = NEW.signup_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER app_links_changed AFTER UPDATE OF invited_at, opened_at, claimed_at ON app_links
  FOR EACH ROW EXECUTE FUNCTION app_links_changed();
