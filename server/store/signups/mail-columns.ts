// What the operators' list of sign-ups says of each one's mail, the same SQL on both stores: its
// latest mail's state, its worst bounce or complaint on record and, when its address is
// suppressed, why (docs/decisions/019-suppression.md).
export const SIGNUP_MAIL_COLUMNS = `(SELECT state FROM outbox WHERE outbox.signup_id = waitlist.id ORDER BY outbox.id DESC LIMIT 1) AS mail_state,
  (SELECT type FROM mail_events WHERE mail_events.signup_id = waitlist.id
   ORDER BY CASE type WHEN 'complaint' THEN 0 WHEN 'hard-bounce' THEN 1 ELSE 2 END LIMIT 1) AS mail_event,
  (SELECT reason FROM suppressions WHERE suppressions.email = lower(waitlist.email)) AS suppressed`
