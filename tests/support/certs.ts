// Certificates made for a test by Debian's openssl: a self-signed one (a CA, or a host's own), and
// a host's certificate signed by such a CA. Each lasts a day; keys are RSA 2048.
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

function openssl(...args: string[]): void {
  const made = spawnSync('openssl', args)
  if (made.status !== 0) throw new Error(`openssl ${args[0]}: ${made.stderr.toString()}`)
}

/** `<dir>/<name>.key` and `<dir>/<name>.pem`, self-signed for `commonName` (with the host as its subjectAltName when given). */
export function selfSigned(dir: string, name: string, commonName: string, altName?: string): { key: string; cert: string } {
  const key = join(dir, `${name}.key`)
  const cert = join(dir, `${name}.pem`)
  const ext = altName === undefined ? [] : ['-addext', `subjectAltName=DNS:${altName}`]
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${commonName}`, ...ext, '-keyout', key, '-out', cert)
  return { key, cert }
}

/** A host's key and certificate, signed by the CA `ca` (from selfSigned). */
export function signedBy(ca: { key: string; cert: string }, dir: string, name: string, host: string): { key: string; cert: string } {
  const key = join(dir, `${name}.key`)
  const csr = join(dir, `${name}.csr`)
  const cert = join(dir, `${name}.pem`)
  const ext = join(dir, `${name}.cnf`)
  writeFileSync(ext, `subjectAltName=DNS:${host}\n`)
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${host}`, '-keyout', key, '-out', csr)
  openssl('x509', '-req', '-in', csr, '-CA', ca.cert, '-CAkey', ca.key, '-CAcreateserial', '-days', '1', '-extfile', ext, '-out', cert)
  return { key, cert }
}
