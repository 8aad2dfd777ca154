-- The sign-up's language (docs/decisions/016-languages.md): the page it joined from, or the one
-- chosen on its own page; its mails and its page speak it. Unknown languages are stored as English.
ALTER TABLE waitlist ADD COLUMN locale text NOT NULL DEFAULT 'en' CONSTRAINT waitlist_locale CHECK (locale IN ('en', 'de', 'fr', 'es', 'it', 'pl'));
-- A campaign's words in the languages it was written in besides English: {"de": {"subject": …, "markdown": …}}.
ALTER TABLE campaigns ADD COLUMN translations jsonb NOT NULL DEFAULT '{}';
