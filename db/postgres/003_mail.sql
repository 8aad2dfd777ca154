-- The mail side of the waitlist (docs/decisions/011-the-outbox.md): what a visitor tells us on
-- their page, the tokens of their page (hashed), and the outbox of mails, each row written in the
-- transaction of what it belongs to.
ALTER TABLE waitlist
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN unsubscribed_at timestamptz,
  ADD COLUMN role text CONSTRAINT waitlist_role CHECK (role IN ('breeder', 'owner', 'club', 'enthusiast')),
  ADD COLUMN breeds text[] NOT NULL DEFAULT '{}' CONSTRAINT waitlist_breeds CHECK (cardinality(breeds) <= 5),
  ADD COLUMN country text CONSTRAINT waitlist_country CHECK (country ~ '^[A-Z]{2}$'),
  -- When the last confirmation mail was queued: at most one per 24 hours, however often an address is entered.
  ADD COLUMN confirmation_queued_at timestamptz;

-- A visitor's page is /me/<token>: only the token's SHA-256 is kept. Every mail carries a token
-- of its own; all of them open the page until the sign-up is deleted.
CREATE TABLE page_tokens (
  token_hash text PRIMARY KEY,
  signup_id  bigint NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX page_tokens_signup ON page_tokens (signup_id);

CREATE TABLE outbox (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  signup_id       bigint NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  kind            text NOT NULL CONSTRAINT outbox_kind CHECK (kind IN ('confirm', 'campaign')),
  campaign_id     bigint,
  -- The Message-ID's left part, fixed when the row is made: a resend is the same message.
  message_key     uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  state           text NOT NULL DEFAULT 'queued' CONSTRAINT outbox_state CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'bounced')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until     timestamptz,
  -- The page token this mail carries, in clear only until the mail is sent or given up.
  token           text,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE state IN ('queued', 'sending');
CREATE INDEX outbox_signup ON outbox (signup_id);
