// One mailbox under its many spellings: an invite from oneself, under another spelling of one's
// own address, is no invite (docs/decisions/015-growth.md).

const GMAIL = new Set(['gmail.com', 'googlemail.com'])

/**
 * The mailbox an address delivers to, as far as the address shows it: letter case ignored, a
 * `+tag` dropped (Gmail, Outlook, Fastmail and most providers deliver `ada+x@` to `ada@`), and for
 * Gmail and Googlemail, which are one service, the dots of the local part too.
 */
export function mailboxKey(email: string): string {
  const at = email.lastIndexOf('@')
  let local = email.slice(0, at).toLowerCase()
  let domain = email.slice(at + 1).toLowerCase()
  const plus = local.indexOf('+')
  if (plus > 0) local = local.slice(0, plus)
  if (GMAIL.has(domain)) {
    domain = 'gmail.com'
    local = local.replaceAll('.', '')
  }
  return `${local}@${domain}`
}
