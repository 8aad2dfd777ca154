-- The waitlist: one row per address, unique without regard to letter case. The checks repeat the
-- server's validation (docs/protocol.md) so the table stays valid whoever writes to it.
CREATE TABLE waitlist (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email        text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  utm_source   text,
  utm_medium   text,
  utm_campaign text,
  referrer     text,
  CONSTRAINT waitlist_email_format CHECK (
    email ~ '^[a-zA-Z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$'
  ),
  CONSTRAINT waitlist_email_length CHECK (char_length(email) <= 254 AND char_length(split_part(email, '@', 1)) <= 64),
  CONSTRAINT waitlist_attribution_length CHECK (
    coalesce(char_length(utm_source), 0) <= 200 AND coalesce(char_length(utm_medium), 0) <= 200 AND
    coalesce(char_length(utm_campaign), 0) <= 200 AND coalesce(char_length(referrer), 0) <= 200
  )
);

CREATE UNIQUE INDEX waitlist_email_lower ON waitlist (lower(email));
CREATE INDEX waitlist_created_at ON waitlist (created_at);
