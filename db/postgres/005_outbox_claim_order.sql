-- The outbox's claim (server/store/postgres.ts) takes the next mails in its order, confirmations
-- first, then the longest due, from an index in that order, and stops at its batch. Without it,
-- every claim joined and sorted every waiting mail: 56 ms a claim with 41,000 waiting, and a
-- 100,000-recipient campaign sent at under half the pace of a 10,000 one.
CREATE INDEX outbox_claim ON outbox ((kind <> 'confirm'), next_attempt_at, id) WHERE state IN ('queued', 'sending');
