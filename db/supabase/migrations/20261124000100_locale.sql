-- The sign-up's language (docs/decisions/016-languages.md): the page sends the language it was
-- read in as `locale`. The public roles may write it and never read it; anything but one of the
-- six languages is stored as English, never refused (the sign-up matters more).

alter table public.waitlist add column if not exists locale text not null default 'en';
grant insert (locale) on table public.waitlist to anon, authenticated;

-- The same trigger as before (a duplicate is skipped silently, a malformed invite code emptied),
-- now also settling the language.
create or replace function public.waitlist_skip_duplicate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.waitlist w where lower(w.email) = lower(new.email)) then
    return null;
  end if;
  if new.invite is not null and new.invite !~ '^[A-Za-z0-9_-]{1,64}$' then
    new.invite := null;
  end if;
  new.locale := coalesce(lower(trim(new.locale)), 'en');
  if new.locale not in ('en', 'de', 'fr', 'es', 'it', 'pl') then
    new.locale := 'en';
  end if;
  return new;
end;
$$;
revoke all on function public.waitlist_skip_duplicate() from public, anon, authenticated;
