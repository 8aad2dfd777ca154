-- Why the server disabled a webhook endpoint is kept as a code (contract/webhooks.ts,
-- WEBHOOK_DISABLED_REASONS), which the admin page, the owners' mail and the command line put in
-- the reader's language: the English sentence kept before read as English inside a translated
-- mail. Both the endpoints' reasons and the owners' mails about them in the outbox change.
UPDATE webhook_endpoints
   SET disabled_reason = CASE WHEN disabled_reason = 'The endpoint answered 410 Gone' THEN 'gone' ELSE 'failing' END
 WHERE disabled_reason IS NOT NULL AND disabled_reason NOT IN ('gone', 'failing');
UPDATE outbox
   SET note = jsonb_set(note, '{reason}', to_jsonb(CASE WHEN note->>'reason' = 'The endpoint answered 410 Gone' THEN 'gone' ELSE 'failing' END))
 WHERE kind = 'webhook-disabled' AND note IS NOT NULL AND note->>'reason' NOT IN ('gone', 'failing');
