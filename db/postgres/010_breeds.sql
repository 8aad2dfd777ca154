-- Breeds by the catalogue (docs/breeds.md): each breed a profile names is a row of its own, the
-- name as typed beside the catalogue's id, with what the breeder brings of it and the health tests
-- done. `waitlist.breeds` keeps the typed names (the demand map, the export) and `breed_sides` the
-- ids and sides, which webhooks carry.
CREATE TABLE signup_breeds (
  signup_id   bigint NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  position    smallint NOT NULL CONSTRAINT signup_breeds_position CHECK (position BETWEEN 1 AND 5),
  name        text NOT NULL CONSTRAINT signup_breeds_name CHECK (char_length(name) BETWEEN 1 AND 60),
  -- The name as matching reads it (contract/breeds.ts, breedKey); NULL until the server has read a
  -- copied name (below), which it does at start.
  name_key    text,
  -- The catalogue's id, or an operator's mapping of the name; NULL while unknown.
  breed       text,
  side        text CONSTRAINT signup_breeds_side CHECK (side IN ('stud', 'dam', 'both', 'seeker')),
  tests       text[] NOT NULL DEFAULT '{}',
  other_tests text CONSTRAINT signup_breeds_other_tests CHECK (char_length(other_tests) <= 120),
  -- The sign-up's country and whether it counts (confirmed, subscribed), kept here by the trigger
  -- on waitlist below, so the meters' counts follow every change without reading the sign-up.
  country     text NOT NULL DEFAULT '',
  counted     boolean NOT NULL DEFAULT false,
  PRIMARY KEY (signup_id, position)
);
-- The meters count by breed; the operators' list of unknown names groups by key.
CREATE INDEX signup_breeds_breed ON signup_breeds (breed, side, signup_id) WHERE breed IS NOT NULL;
CREATE INDEX signup_breeds_unmatched ON signup_breeds (name_key) WHERE breed IS NULL;

-- The meters (docs/breeds.md): counted profiles per breed and country ('' when not said), kept by
-- the triggers below as profiles, confirmations, countries and mappings change, so reading them
-- costs nothing however long the list.
CREATE TABLE breed_counts (
  breed    text NOT NULL,
  country  text NOT NULL,
  studs    integer NOT NULL DEFAULT 0,
  dams     integer NOT NULL DEFAULT 0,
  seekers  integer NOT NULL DEFAULT 0,
  profiles integer NOT NULL DEFAULT 0,
  PRIMARY KEY (breed, country)
);

CREATE FUNCTION breed_counts_add(b text, c text, s text, delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO breed_counts (breed, country, studs, dams, seekers, profiles)
  VALUES (b, c, CASE WHEN s IN ('stud', 'both') THEN delta ELSE 0 END, CASE WHEN s IN ('dam', 'both') THEN delta ELSE 0 END,
    CASE WHEN s = 'seeker' THEN delta ELSE 0 END, delta)
  ON CONFLICT (breed, country) DO UPDATE SET studs = breed_counts.studs + excluded.studs, dams = breed_counts.dams + excluded.dams,
    seekers = breed_counts.seekers + excluded.seekers, profiles = breed_counts.profiles + excluded.profiles
$$;

CREATE FUNCTION signup_breeds_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.counted AND OLD.breed IS NOT NULL THEN
    PERFORM breed_counts_add(OLD.breed, OLD.country, OLD.side, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.counted AND NEW.breed IS NOT NULL THEN
    PERFORM breed_counts_add(NEW.breed, NEW.country, NEW.side, 1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER signup_breeds_count AFTER INSERT OR DELETE OR UPDATE OF breed, side, country, counted ON signup_breeds
  FOR EACH ROW EXECUTE FUNCTION signup_breeds_count();

-- A sign-up confirmed, stopping e-mails or moving: its breeds' rows follow (and the counts with them).
CREATE FUNCTION signup_breeds_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.confirmed_at IS NULL, OLD.unsubscribed_at IS NULL, OLD.country) IS DISTINCT FROM (NEW.confirmed_at IS NULL, NEW.unsubscribed_at IS NULL, NEW.country) THEN
    UPDATE signup_breeds SET country = coalesce(NEW.country, ''), counted = (NEW.confirmed_at IS NOT NULL AND NEW.unsubscribed_at IS NULL)
    WHERE signup_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER signup_breeds_follow AFTER UPDATE OF confirmed_at, unsubscribed_at, country ON waitlist
  FOR EACH ROW EXECUTE FUNCTION signup_breeds_follow();

-- A name the catalogue does not know, mapped by an operator to a breed: it holds for later sign-ups too.
CREATE TABLE breed_mappings (
  name_key   text PRIMARY KEY,
  breed      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE waitlist
  ADD COLUMN kennel_club text CONSTRAINT waitlist_kennel_club CHECK (kennel_club IN ('KC', 'VDH', 'SCC', 'RSCE', 'ENCI', 'ZKwP', 'AKC', 'other')),
  -- Litters in the last twelve months; 3 is three or more.
  ADD COLUMN litters smallint CONSTRAINT waitlist_litters CHECK (litters BETWEEN 0 AND 3),
  ADD COLUMN breed_sides jsonb NOT NULL DEFAULT '[]';

-- The free-text breeds named so far, one row each; the server matches them at its next start.
INSERT INTO signup_breeds (signup_id, position, name, country, counted)
  SELECT waitlist.id, named.position, named.name, coalesce(waitlist.country, ''), waitlist.confirmed_at IS NOT NULL AND waitlist.unsubscribed_at IS NULL
  FROM waitlist, unnest(waitlist.breeds) WITH ORDINALITY AS named (name, position)
  WHERE named.position <= 5 AND char_length(named.name) BETWEEN 1 AND 60;

-- Sign-up events carry the ids and sides; a change of them is a profile update.
CREATE OR REPLACE FUNCTION webhook_signup(w waitlist) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', w.id, 'role', w.role, 'country', w.country, 'breeds', to_jsonb(w.breeds), 'sides', w.breed_sides,
    'locale', w.locale, 'source', coalesce(w.utm_source, w.referrer))
$$;

CREATE OR REPLACE FUNCTION waitlist_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_emit('signup.created', NEW.id, webhook_signup(NEW));
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    PERFORM webhook_emit('signup.deleted', OLD.id, webhook_signup(OLD));
    RETURN OLD;
  END IF;
  IF OLD.confirmed_at IS NULL AND NEW.confirmed_at IS NOT NULL THEN
    PERFORM webhook_emit('signup.confirmed', NEW.id, webhook_signup(NEW));
  END IF;
  IF OLD.unsubscribed_at IS NULL AND NEW.unsubscribed_at IS NOT NULL THEN
    PERFORM webhook_emit('signup.unsubscribed', NEW.id, webhook_signup(NEW));
  END IF;
  IF (OLD.role, OLD.breeds, OLD.breed_sides, OLD.country, OLD.locale) IS DISTINCT FROM (NEW.role, NEW.breeds, NEW.breed_sides, NEW.country, NEW.locale) THEN
    PERFORM webhook_emit('signup.profile_updated', NEW.id, webhook_signup(NEW));
  END IF;
  IF OLD.invite_credited_at IS NULL AND NEW.invite_credited_at IS NOT NULL THEN
    PERFORM webhook_emit('invite.confirmed', NEW.id, webhook_signup(NEW) || jsonb_build_object('inviter', NEW.invited_by));
  END IF;
  RETURN NEW;
END $$;

DROP TRIGGER waitlist_webhooks ON waitlist;
CREATE TRIGGER waitlist_webhooks AFTER INSERT OR DELETE OR UPDATE OF confirmed_at, unsubscribed_at, role, breeds, breed_sides, country, locale, invite_credited_at
  ON waitlist FOR EACH ROW EXECUTE FUNCTION waitlist_webhooks();
