-- The figures the team and the public read most, kept as tallies (as db/sqlite/017_counts_of_people.sql
-- says), per statement: a batch of sign-ups is one delta per key.
CREATE FUNCTION people_key(w waitlist) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(w.role, '') || '|' || coalesce(w.country, '') || '|' || w.locale || '|' || coalesce(w.platform, '') || '|' ||
    CASE WHEN w.unsubscribed_at IS NOT NULL THEN CASE WHEN w.confirmed_at IS NOT NULL THEN 'stopped' ELSE 'stopped-unconfirmed' END
      WHEN w.confirmed_at IS NOT NULL THEN 'waiting' ELSE 'unconfirmed' END
$$;

CREATE FUNCTION waitlist_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tally_deltas (kind, key, field, n)
      SELECT 'people', people_key(r), 'n', count(*) FROM after_rows AS r GROUP BY 2
      UNION ALL SELECT 'signups-day', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'signups', count(*) FROM after_rows GROUP BY 2
      UNION ALL SELECT 'signups-source', coalesce(utm_source, referrer, ''), 'signups', count(*) FROM after_rows GROUP BY 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tally_deltas (kind, key, field, n)
      SELECT 'people', people_key(r), 'n', -count(*) FROM before_rows AS r GROUP BY 2
      UNION ALL SELECT 'signups-day', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'signups', -count(*) FROM before_rows GROUP BY 2
      UNION ALL SELECT 'signups-source', coalesce(utm_source, referrer, ''), 'signups', -count(*) FROM before_rows GROUP BY 2;
  ELSE
    -- A person whose standing, role, country, language or phone changed moves between keys; a day
    -- or a source corrected (an import, a fix by hand) moves its count.
    INSERT INTO tally_deltas (kind, key, field, n)
      SELECT kind, key, field, sum(n) FROM (
        SELECT 'people' AS kind, people_key(o) AS key, 'n' AS field, -1 AS n FROM before_rows AS o JOIN after_rows AS a ON a.id = o.id WHERE people_key(o) <> people_key(a)
        UNION ALL SELECT 'people', people_key(a), 'n', 1 FROM before_rows AS o JOIN after_rows AS a ON a.id = o.id WHERE people_key(o) <> people_key(a)
        UNION ALL SELECT 'signups-day', to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'signups', -1 FROM before_rows AS o JOIN after_rows AS a ON a.id = o.id
          WHERE o.created_at <> a.created_at
        UNION ALL SELECT 'signups-day', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'signups', 1 FROM before_rows AS o JOIN after_rows AS a ON a.id = o.id
          WHERE o.created_at <> a.created_at
        UNION ALL SELECT 'signups-source', coalesce(o.utm_source, o.referrer, ''), 'signups', -1 FROM before_rows AS o JOIN after_rows AS a ON a.id = o.id
          WHERE coalesce(o.utm_source, o.referrer, '') <> coalesce(a.utm_source, a.referrer, '')
        UNION ALL SELECT 'signups-source', coalesce(a.utm_source, a.referrer, ''), 'signups', 1 FROM before_rows AS o JOIN after_rows AS a ON a.id = o.id
          WHERE coalesce(o.utm_source, o.referrer, '') <> coalesce(a.utm_source, a.referrer, '')
      ) AS moved GROUP BY kind, key, field HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER waitlist_tally_insert AFTER INSERT ON waitlist REFERENCING NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_tally();
CREATE TRIGGER waitlist_tally_update AFTER UPDATE ON waitlist REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_tally();
CREATE TRIGGER waitlist_tally_delete AFTER DELETE ON waitlist REFERENCING OLD TABLE AS before_rows
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_tally();

-- Filled once from the rows.
INSERT INTO tallies (kind, key, field, n)
  SELECT 'people', people_key(w), 'n', count(*) FROM waitlist AS w GROUP BY 2
  UNION ALL SELECT 'signups-day', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'signups', count(*) FROM waitlist GROUP BY 2
  UNION ALL SELECT 'signups-source', coalesce(utm_source, referrer, ''), 'signups', count(*) FROM waitlist GROUP BY 2;

-- The names the catalogue missed are listed by key with a spelling of each: read from the index alone.
DROP INDEX signup_breeds_unmatched;
CREATE INDEX signup_breeds_unmatched ON signup_breeds (name_key, name) WHERE breed IS NULL;
-- The suppression list, the newest first, a page at a time.
CREATE INDEX suppressions_at ON suppressions (at, email_hash);
