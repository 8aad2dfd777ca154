-- Each operator's own language for the back office (issue 52, docs/decisions/027-the-back-office-in-six-languages.md):
-- the admin page and the mails to them (an invitation, a sign-in link) speak it. An invitation
-- carries the language it is mailed in, which the invitee starts with. The API checks the value
-- against the languages there are (contract/locales.ts): a seventh needs no migration.
ALTER TABLE operators ADD COLUMN locale TEXT NOT NULL DEFAULT 'en';
ALTER TABLE operator_links ADD COLUMN locale TEXT;
