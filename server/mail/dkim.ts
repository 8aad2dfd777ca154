// DKIM (RFC 6376): every mail signed with the deployment's key under its selector, for MAIL_FROM's
// domain, by Nodemailer's signer; and the DNS records a domain publishes so that receivers (Gmail
// and Yahoo require it of bulk senders) can check the signature and the sender.
import { createPrivateKey, createPublicKey } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'

export interface DkimKey {
  domainName: string
  keySelector: string
  privateKey: string
}

/** The PEM itself (a variable may hold it with `\n` for its line breaks), or the file it is in. */
export function readPem(value: string): string {
  const text = value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : existsSync(value) ? readFileSync(value, 'utf8') : ''
  return text.trim()
}

/** The address's domain, from `Name <a@b>` or `a@b`. */
export const domainOf = (from: string): string => /@([^\s@<>]+)>?\s*$/.exec(from)?.[1]?.toLowerCase() ?? ''

export function dkimKey(privateKey: string | undefined, selector: string | undefined, mailFrom: string): DkimKey | undefined {
  if (!privateKey || !selector) return undefined
  return { domainName: domainOf(mailFrom), keySelector: selector, privateKey }
}

/** The TXT records to publish for MAIL_FROM's domain: SPF (your provider's include), DKIM, DMARC. */
export function dnsRecords(mailFrom: string, key: DkimKey | undefined): { name: string; value: string; note: string }[] {
  const domain = domainOf(mailFrom)
  const records = [
    {
      name: domain,
      value: 'v=spf1 include:<your mail provider> ~all',
      note: 'SPF: the servers that may send for the domain (your provider names its include, e.g. amazonses.com)',
    },
  ]
  if (key) {
    const publicKey = createPublicKey(createPrivateKey(key.privateKey)).export({ type: 'spki', format: 'der' }).toString('base64')
    records.push({
      name: `${key.keySelector}._domainkey.${domain}`,
      value: `v=DKIM1; k=rsa; p=${publicKey}`,
      note: 'DKIM: the public half of DKIM_PRIVATE_KEY',
    })
  }
  records.push({
    name: `_dmarc.${domain}`,
    value: `v=DMARC1; p=quarantine; adkim=r; aspf=r; rua=mailto:dmarc@${domain}`,
    note: 'DMARC: what receivers do with mail that fails both (start with p=none to watch first)',
  })
  return records
}
