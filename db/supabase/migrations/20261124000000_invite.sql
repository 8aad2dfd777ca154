-- Invite links (docs/decisions/015-growth.md): the page sends the inviter's code it was opened
-- with as `invite`. The public roles may write it and never read it; a malformed code is dropped,
-- never refused, so the answer is the same for every code. Crediting inviters needs our server.

alter table public.waitlist add column if not exists invite text;
grant insert (invite) on table public.waitlist to anon, authenticated;

-- The same trigger as before (a duplicate is skipped silently), now also dropping a code that is
-- not one: at most 64 letters, digits, `-` and `_`.
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
  return new;
end;
$$;
revoke all on function public.waitlist_skip_duplicate() from public, anon, authenticated;
