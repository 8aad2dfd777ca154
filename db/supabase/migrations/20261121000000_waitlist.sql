-- Kennect waitlist for a Supabase project (docs/protocol.md, "The Supabase migration").
-- The page inserts with the public anon key; nobody but the service role can read the list.

create table if not exists public.waitlist (
  id           bigint generated always as identity primary key,
  email        text not null,
  created_at   timestamptz not null default now(),
  utm_source   text,
  utm_medium   text,
  utm_campaign text,
  referrer     text,
  constraint waitlist_email_format check (
    email ~ '^[a-zA-Z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$'
  ),
  constraint waitlist_email_length check (char_length(email) <= 254 and char_length(split_part(email, '@', 1)) <= 64),
  constraint waitlist_attribution_length check (
    coalesce(char_length(utm_source), 0) <= 200 and coalesce(char_length(utm_medium), 0) <= 200 and
    coalesce(char_length(utm_campaign), 0) <= 200 and coalesce(char_length(referrer), 0) <= 200
  )
);

-- One row per address, whatever its letter case.
create unique index if not exists waitlist_email_lower_key on public.waitlist (lower(email));

-- Row Level Security: the public roles may insert, and nothing else.
alter table public.waitlist enable row level security;
revoke all on table public.waitlist from anon, authenticated;
grant insert (email, utm_source, utm_medium, utm_campaign, referrer) on table public.waitlist to anon, authenticated;
drop policy if exists "Anyone can join the waitlist" on public.waitlist;
create policy "Anyone can join the waitlist" on public.waitlist for insert to anon, authenticated with check (true);

-- The team reads and manages the list with the service role (server-side only, never in a page).
grant select, insert, update, delete on table public.waitlist to service_role;

-- A duplicate is skipped silently, so the answer (201) never tells whether an address is listed.
-- Security definer: the public roles cannot select, but the check must see every row.
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
  return new;
end;
$$;
revoke all on function public.waitlist_skip_duplicate() from public, anon, authenticated;

drop trigger if exists waitlist_skip_duplicate on public.waitlist;
create trigger waitlist_skip_duplicate
  before insert on public.waitlist
  for each row execute function public.waitlist_skip_duplicate();
