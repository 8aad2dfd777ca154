// DKIM (RFC 6376): every mail signed with the deployment's key under its selector, for MAIL_FROM's
// domain, by mailauth's signer; and the DNS records a domain publishes so that receivers (Gmail
// and Yahoo require it of bulk senders) can check the signature and the sender.
// mailauth, not Nodemailer's built-in signer: Nodemailer's writes `a=rsa-sha256` whatever the key
// (an Ed25519 key signed nothing, an EC key made an ECDSA signature no one can check) and its
// fixed list of headers leaves out List-Unsubscribe-Post.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { lazily } from '../lazy.js'

export interface DkimKey {
  domainName: string
  keySelector: string
  privateKey: string
  /** Follows the key (RFC 8463 for Ed25519), never a fixed rsa-sha256. */
  algorithm: 'rsa-sha256' | 'ed25519-sha256'
}

/**
 * RSA keys below this are refused. RFC 8301 sets the floor at 1024 bits, but Google's sender
 * guidelines and the providers' key generators use 2048: 1024-bit RSA is no longer thought safe.
 */
export const DKIM_RSA_MIN_BITS = 2048

/** One DNS character-string holds at most this many characters (RFC 1035 §3.3). */
export const TXT_STRING_MAX_CHARS = 255

/**
 * The header fields the signature covers: RFC 6376 §5.4.1's list, as far as our mails carry them,
 * and List-Unsubscribe-Post beside List-Unsubscribe: RFC 8058 §4 asks that both be signed, and
 * Gmail and Yahoo offer one-click unsubscribe only then.
 */
const SIGNED_HEADERS = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'In-Reply-To',
  'References',
  'List-Id',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
]

/** The PEM itself (a variable may hold it with `\n` for its line breaks), or the file it is in. */
export function readPem(value: string): string {
  const text = value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : existsSync(value) ? readFileSync(value, 'utf8') : ''
  return text.trim()
}

const EXPECTED_KEY = `expected an RSA key of ${DKIM_RSA_MIN_BITS} bits or more or an Ed25519 key`
const KEY_KINDS: Record<string, string> = { ec: 'an EC key', dsa: 'a DSA key', 'rsa-pss': 'an RSA-PSS key', dh: 'a DH key' }

/** Why a PEM cannot sign DKIM, as the configuration says it (`expected …`); undefined when it can. */
export function dkimKeyProblem(pem: string): string | undefined {
  let key: KeyObject
  try {
    key = createPrivateKey(pem)
  } catch {
    return 'expected a private key in PEM (-----BEGIN PRIVATE KEY-----…) or the path of a readable file holding one'
  }
  const type = key.asymmetricKeyType ?? 'unknown'
  if (type === 'ed25519') return undefined
  if (type === 'rsa') {
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0
    return bits >= DKIM_RSA_MIN_BITS ? undefined : `${EXPECTED_KEY}, got a ${bits}-bit RSA key`
  }
  return `${EXPECTED_KEY}, got ${KEY_KINDS[type] ?? `a key of type ${type}`}`
}

/** The address's domain, from `Name <a@b>` or `a@b`. */
export const domainOf = (from: string): string => /@([^\s@<>]+)>?\s*$/.exec(from)?.[1]?.toLowerCase() ?? ''

export function dkimKey(privateKey: string | undefined, selector: string | undefined, mailFrom: string): DkimKey | undefined {
  if (!privateKey || !selector) return undefined
  const algorithm = createPrivateKey(privateKey).asymmetricKeyType === 'ed25519' ? 'ed25519-sha256' : 'rsa-sha256'
  return { domainName: domainOf(mailFrom), keySelector: selector, privateKey, algorithm }
}

/** mailauth loads a schema library and a suffix list: only a deployment that signs pays for them. */
const signer = lazily(() => import('mailauth/lib/dkim/sign.js'))

/** The message with its DKIM-Signature header in front. */
export async function signMessage(message: Buffer, key: DkimKey): Promise<Buffer> {
  const { dkimSign } = await signer()
  const signature = {
    signingDomain: key.domainName,
    selector: key.keySelector,
    privateKey: key.privateKey,
    algorithm: key.algorithm,
    canonicalization: 'relaxed/relaxed',
  }
  // The signer makes one signature per entry of signatureData and reads no key from the top
  // level, where its types nevertheless ask for one.
  const result = await dkimSign(message, { ...signature, signatureData: [signature], headerList: SIGNED_HEADERS })
  // The key was checked at start: a mail that cannot be signed is a bug to see, not one to send unsigned.
  if (result.errors.length > 0 || !result.signatures)
    throw new Error(`DKIM: the mail could not be signed (${result.errors.map((e) => e.err.message).join('; ') || 'no signature made'})`)
  return Buffer.concat([Buffer.from(result.signatures), message])
}

/**
 * The DKIM key record's value: RSA as its SubjectPublicKeyInfo (RFC 6376 §3.6.1), Ed25519 as the
 * bare 32-byte public key (RFC 8463 §4), each in base64.
 */
export function dkimRecordValue(privateKey: string): string {
  const publicKey = createPublicKey(createPrivateKey(privateKey))
  if (publicKey.asymmetricKeyType === 'ed25519') {
    const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url')
    return `v=DKIM1; k=ed25519; p=${raw.toString('base64')}`
  }
  return `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`
}

/** A TXT value as a zone file needs it: quoted strings of at most 255 characters, joined again by the receiver. */
export function txtStrings(value: string): string {
  const strings: string[] = []
  for (let at = 0; at < value.length; at += TXT_STRING_MAX_CHARS) strings.push(`"${value.slice(at, at + TXT_STRING_MAX_CHARS)}"`)
  return strings.join(' ')
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
    const value = dkimRecordValue(key.privateKey)
    const split =
      value.length > TXT_STRING_MAX_CHARS
        ? `; ${value.length} characters, longer than the ${TXT_STRING_MAX_CHARS} one DNS string holds: published as the quoted strings below, which receivers join (paste them as they are)`
        : ''
    records.push({
      name: `${key.keySelector}._domainkey.${domain}`,
      value,
      note: `DKIM: the public half of DKIM_PRIVATE_KEY (${key.algorithm === 'ed25519-sha256' ? 'Ed25519, RFC 8463' : 'RSA'})${split}`,
    })
  }
  records.push({
    // docs/deployment.md#mail-authentication-spf-dkim-dmarc: watch first, then tighten.
    name: `_dmarc.${domain}`,
    value: `v=DMARC1; p=none; adkim=r; aspf=r; rua=mailto:dmarc@${domain}`,
    note: 'DMARC: p=none only watches and sends reports to rua; once they show your own mail passing, move to p=quarantine, then p=reject',
  })
  return records
}
