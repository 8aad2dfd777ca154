-- Breeds by the catalogue (docs/breeds.md): each breed a profile names is a row of its own, the
-- name as typed beside the catalogue's id, with what the breeder brings of it and the health tests
-- done. `waitlist.breeds` keeps the typed names (the demand map, the export) and `breed_sides` the
-- ids and sides, which webhooks carry.
CREATE TABLE signup_breeds (
  signup_id   INTEGER NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  position    INTEGER NOT NULL CONSTRAINT signup_breeds_position CHECK (position BETWEEN 1 AND 5),
  name        TEXT NOT NULL CONSTRAINT signup_breeds_name CHECK (length(name) BETWEEN 1 AND 60),
  -- The name as matching reads it (contract/breeds.ts, breedKey); NULL until the server has read a
  -- copied name (below), which it does at start.
  name_key    TEXT,
  -- The catalogue's id, or an operator's mapping of the name; NULL while unknown.
  breed       TEXT,
  side        TEXT CONSTRAINT signup_breeds_side CHECK (side IN ('stud', 'dam', 'both', 'seeker')),
  tests       TEXT NOT NULL DEFAULT '[]' CONSTRAINT signup_breeds_tests CHECK (json_valid(tests) AND json_type(tests) = 'array'),
  other_tests TEXT CONSTRAINT signup_breeds_other_tests CHECK (length(other_tests) <= 120),
  -- The sign-up's country and whether it counts (confirmed, subscribed), kept here by the trigger
  -- on waitlist below, so the meters' counts follow every change without reading the sign-up.
  country     TEXT NOT NULL DEFAULT '',
  counted     INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (signup_id, position)
) WITHOUT ROWID;
-- The meters count by breed; the operators' list of unknown names groups by key.
CREATE INDEX signup_breeds_breed ON signup_breeds (breed, side, signup_id) WHERE breed IS NOT NULL;
CREATE INDEX signup_breeds_unmatched ON signup_breeds (name_key) WHERE breed IS NULL;

-- The meters (docs/breeds.md): counted profiles per breed and country ('' when not said), kept by
-- the triggers below as profiles, confirmations, countries and mappings change, so reading them
-- costs nothing however long the list (counting them from the rows took 2.7 s at 1,000,000 sign-ups).
CREATE TABLE breed_counts (
  breed    TEXT NOT NULL,
  country  TEXT NOT NULL,
  studs    INTEGER NOT NULL DEFAULT 0,
  dams     INTEGER NOT NULL DEFAULT 0,
  seekers  INTEGER NOT NULL DEFAULT 0,
  profiles INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (breed, country)
) WITHOUT ROWID;

CREATE TRIGGER breed_counts_insert AFTER INSERT ON signup_breeds
WHEN NEW.counted = 1 AND NEW.breed IS NOT NULL
BEGIN
  INSERT INTO breed_counts (breed, country, studs, dams, seekers, profiles)
    VALUES (NEW.breed, NEW.country, (NEW.side IS 'stud' OR NEW.side IS 'both'), (NEW.side IS 'dam' OR NEW.side IS 'both'), NEW.side IS 'seeker', 1)
    ON CONFLICT (breed, country) DO UPDATE SET studs = studs + excluded.studs, dams = dams + excluded.dams,
      seekers = seekers + excluded.seekers, profiles = profiles + 1;
END;

CREATE TRIGGER breed_counts_delete AFTER DELETE ON signup_breeds
WHEN OLD.counted = 1 AND OLD.breed IS NOT NULL
BEGIN
  UPDATE breed_counts SET studs = studs - ((OLD.side IS 'stud' OR OLD.side IS 'both')), dams = dams - ((OLD.side IS 'dam' OR OLD.side IS 'both')),
    seekers = seekers - (OLD.side IS 'seeker'), profiles = profiles - 1
  WHERE breed = OLD.breed AND country = OLD.country;
END;

CREATE TRIGGER breed_counts_update AFTER UPDATE OF breed, side, country, counted ON signup_breeds
BEGIN
  UPDATE breed_counts SET studs = studs - ((OLD.side IS 'stud' OR OLD.side IS 'both')), dams = dams - ((OLD.side IS 'dam' OR OLD.side IS 'both')),
    seekers = seekers - (OLD.side IS 'seeker'), profiles = profiles - 1
  WHERE OLD.counted = 1 AND OLD.breed IS NOT NULL AND breed = OLD.breed AND country = OLD.country;
  INSERT INTO breed_counts (breed, country, studs, dams, seekers, profiles)
    SELECT NEW.breed, NEW.country, (NEW.side IS 'stud' OR NEW.side IS 'both'), (NEW.side IS 'dam' OR NEW.side IS 'both'), NEW.side IS 'seeker', 1
    WHERE NEW.counted = 1 AND NEW.breed IS NOT NULL
    ON CONFLICT (breed, country) DO UPDATE SET studs = studs + excluded.studs, dams = dams + excluded.dams,
      seekers = seekers + excluded.seekers, profiles = profiles + 1;
END;

-- A sign-up confirmed, stopping e-mails or moving: its breeds' rows follow (and the counts with them).
CREATE TRIGGER signup_breeds_follow AFTER UPDATE OF confirmed_at, unsubscribed_at, country ON waitlist
WHEN (OLD.confirmed_at IS NULL) IS NOT (NEW.confirmed_at IS NULL) OR (OLD.unsubscribed_at IS NULL) IS NOT (NEW.unsubscribed_at IS NULL)
  OR OLD.country IS NOT NEW.country
BEGIN
  UPDATE signup_breeds SET country = coalesce(NEW.country, ''), counted = (NEW.confirmed_at IS NOT NULL AND NEW.unsubscribed_at IS NULL)
  WHERE signup_id = NEW.id;
END;

-- A name the catalogue does not know, mapped by an operator to a breed: it holds for later sign-ups too.
CREATE TABLE breed_mappings (
  name_key   TEXT PRIMARY KEY,
  breed      TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

ALTER TABLE waitlist ADD COLUMN kennel_club TEXT
  CONSTRAINT waitlist_kennel_club CHECK (kennel_club IN ('KC', 'VDH', 'SCC', 'RSCE', 'ENCI', 'ZKwP', 'AKC', 'other'));
-- Litters in the last twelve months; 3 is three or more.
ALTER TABLE waitlist ADD COLUMN litters INTEGER CONSTRAINT waitlist_litters CHECK (litters BETWEEN 0 AND 3);
ALTER TABLE waitlist ADD COLUMN breed_sides TEXT NOT NULL DEFAULT '[]' CONSTRAINT waitlist_breed_sides CHECK (json_valid(breed_sides));

-- The free-text breeds named so far, one row each; the server matches them at its next start.
INSERT INTO signup_breeds (signup_id, position, name, country, counted)
  SELECT waitlist.id, named.key + 1, named.value, coalesce(waitlist.country, ''),
    waitlist.confirmed_at IS NOT NULL AND waitlist.unsubscribed_at IS NULL
  FROM waitlist, json_each(waitlist.breeds) AS named
  WHERE named.key < 5 AND length(named.value) BETWEEN 1 AND 60;

-- Sign-up events carry the ids and sides; a change of them is a profile update.
DROP TRIGGER webhook_signup_created;
DROP TRIGGER webhook_signup_deleted;
DROP TRIGGER webhook_signup_confirmed;
DROP TRIGGER webhook_signup_unsubscribed;
DROP TRIGGER webhook_signup_profile;
DROP TRIGGER webhook_invite_confirmed;

CREATE TRIGGER webhook_signup_created AFTER INSERT ON waitlist
WHEN EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'signup.created')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'signup.created', NEW.id,
    json_object('id', NEW.id, 'role', NEW.role, 'country', NEW.country, 'breeds', json(NEW.breeds), 'sides', json(NEW.breed_sides), 'locale', NEW.locale, 'source', coalesce(NEW.utm_source, NEW.referrer)));
END;

CREATE TRIGGER webhook_signup_deleted AFTER DELETE ON waitlist
WHEN EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'signup.deleted')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'signup.deleted', OLD.id,
    json_object('id', OLD.id, 'role', OLD.role, 'country', OLD.country, 'breeds', json(OLD.breeds), 'sides', json(OLD.breed_sides), 'locale', OLD.locale, 'source', coalesce(OLD.utm_source, OLD.referrer)));
END;

CREATE TRIGGER webhook_signup_confirmed AFTER UPDATE OF confirmed_at ON waitlist
WHEN OLD.confirmed_at IS NULL AND NEW.confirmed_at IS NOT NULL
  AND EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'signup.confirmed')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'signup.confirmed', NEW.id,
    json_object('id', NEW.id, 'role', NEW.role, 'country', NEW.country, 'breeds', json(NEW.breeds), 'sides', json(NEW.breed_sides), 'locale', NEW.locale, 'source', coalesce(NEW.utm_source, NEW.referrer)));
END;

CREATE TRIGGER webhook_signup_unsubscribed AFTER UPDATE OF unsubscribed_at ON waitlist
WHEN OLD.unsubscribed_at IS NULL AND NEW.unsubscribed_at IS NOT NULL
  AND EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'signup.unsubscribed')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'signup.unsubscribed', NEW.id,
    json_object('id', NEW.id, 'role', NEW.role, 'country', NEW.country, 'breeds', json(NEW.breeds), 'sides', json(NEW.breed_sides), 'locale', NEW.locale, 'source', coalesce(NEW.utm_source, NEW.referrer)));
END;

CREATE TRIGGER webhook_signup_profile AFTER UPDATE OF role, breeds, breed_sides, country, locale ON waitlist
WHEN (OLD.role IS NOT NEW.role OR OLD.breeds IS NOT NEW.breeds OR OLD.breed_sides IS NOT NEW.breed_sides OR OLD.country IS NOT NEW.country OR OLD.locale IS NOT NEW.locale)
  AND EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'signup.profile_updated')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'signup.profile_updated', NEW.id,
    json_object('id', NEW.id, 'role', NEW.role, 'country', NEW.country, 'breeds', json(NEW.breeds), 'sides', json(NEW.breed_sides), 'locale', NEW.locale, 'source', coalesce(NEW.utm_source, NEW.referrer)));
END;

CREATE TRIGGER webhook_invite_confirmed AFTER UPDATE OF invite_credited_at ON waitlist
WHEN OLD.invite_credited_at IS NULL AND NEW.invite_credited_at IS NOT NULL
  AND EXISTS (SELECT 1 FROM webhook_endpoints, json_each(webhook_endpoints.events) WHERE enabled = 1 AND json_each.value = 'invite.confirmed')
BEGIN
  INSERT INTO webhook_events (message_id, type, signup_id, data) VALUES ('msg_' || lower(hex(randomblob(16))), 'invite.confirmed', NEW.id,
    json_object('id', NEW.id, 'role', NEW.role, 'country', NEW.country, 'breeds', json(NEW.breeds), 'sides', json(NEW.breed_sides), 'locale', NEW.locale, 'source', coalesce(NEW.utm_source, NEW.referrer), 'inviter', NEW.invited_by));
END;
