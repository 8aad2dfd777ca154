-- Webhooks (docs/decisions/018-webhooks.md): endpoints, the events they get, one delivery per event
-- and endpoint, and each attempt's line. An event and its deliveries are written by a trigger in
-- the transaction of the change they report, so no path that changes a sign-up can forget one.
CREATE TABLE webhook_endpoints (
  id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url             text NOT NULL CONSTRAINT webhook_url CHECK (char_length(url) <= 2048),
  description     text NOT NULL DEFAULT '',
  events          jsonb NOT NULL CONSTRAINT webhook_events_list CHECK (jsonb_typeof(events) = 'array' AND jsonb_array_length(events) > 0),
  enabled         boolean NOT NULL DEFAULT true,
  include_email   boolean NOT NULL DEFAULT false,
  -- whsec_…: kept as it is, since signing needs it; shown once, when made or rotated.
  secret          text NOT NULL,
  previous_secret text,
  previous_until  timestamptz,
  disabled_reason text,
  failing_since   timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_events (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id text NOT NULL UNIQUE,
  type       text NOT NULL,
  signup_id  bigint,
  data       jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id        bigint NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  endpoint_id     integer NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  state           text NOT NULL DEFAULT 'pending' CONSTRAINT webhook_delivery_state CHECK (state IN ('pending', 'delivering', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until     timestamptz,
  last_status     integer,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  delivered_at    timestamptz,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, state, created_at);

CREATE TABLE webhook_attempts (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  endpoint_id integer NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_type  text NOT NULL,
  attempt     integer NOT NULL,
  at          timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status      integer,
  response    text,
  error       text
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, id);
CREATE INDEX webhook_attempts_at ON webhook_attempts (at);

CREATE TABLE webhook_announced (
  key text PRIMARY KEY,
  at  timestamptz NOT NULL DEFAULT now()
);

-- One event of a kind, and a delivery to each enabled endpoint that takes it; nothing without one.
CREATE FUNCTION webhook_emit(kind text, signup bigint, payload jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  event bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled AND events ? kind) THEN
    RETURN;
  END IF;
  INSERT INTO webhook_events (message_id, type, signup_id, data)
    VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), kind, signup, payload) RETURNING id INTO event;
  INSERT INTO webhook_deliveries (event_id, endpoint_id) SELECT event, id FROM webhook_endpoints WHERE enabled AND events ? kind;
END $$;

-- A sign-up as an event carries it: never the address (added at sending, for an endpoint that asks).
CREATE FUNCTION webhook_signup(w waitlist) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', w.id, 'role', w.role, 'country', w.country, 'breeds', to_jsonb(w.breeds),
    'locale', w.locale, 'source', coalesce(w.utm_source, w.referrer))
$$;

CREATE FUNCTION waitlist_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
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
  IF (OLD.role, OLD.breeds, OLD.country, OLD.locale) IS DISTINCT FROM (NEW.role, NEW.breeds, NEW.country, NEW.locale) THEN
    PERFORM webhook_emit('signup.profile_updated', NEW.id, webhook_signup(NEW));
  END IF;
  IF OLD.invite_credited_at IS NULL AND NEW.invite_credited_at IS NOT NULL THEN
    PERFORM webhook_emit('invite.confirmed', NEW.id, webhook_signup(NEW) || jsonb_build_object('inviter', NEW.invited_by));
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER waitlist_webhooks AFTER INSERT OR DELETE OR UPDATE OF confirmed_at, unsubscribed_at, role, breeds, country, locale, invite_credited_at
  ON waitlist FOR EACH ROW EXECUTE FUNCTION waitlist_webhooks();

-- An owner's mail about a disabled endpoint goes through the outbox too: a third kind of
-- recipient, an operator, and the mail's words in `note`.
ALTER TABLE outbox ADD COLUMN operator_id integer REFERENCES operators (id) ON DELETE CASCADE;
ALTER TABLE outbox ADD COLUMN note jsonb;
ALTER TABLE outbox DROP CONSTRAINT outbox_kind;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind CHECK (kind IN ('confirm', 'campaign', 'team-invite', 'team-sign-in', 'webhook-disabled'));
ALTER TABLE outbox DROP CONSTRAINT outbox_recipient;
ALTER TABLE outbox ADD CONSTRAINT outbox_recipient CHECK (num_nonnulls(signup_id, link_id, operator_id) = 1);
CREATE INDEX outbox_operator ON outbox (operator_id);
