// Passkeys through @simplewebauthn/server 14: registration and
// sign-in ceremonies with user verification required, discoverable credentials, and each
// ceremony's challenge kept in the store for five minutes, used once.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { randomBytes, randomUUID } from 'node:crypto'
import type { Locale } from '../../contract/locales.js'
import { TEAM_TIMES } from '../../contract/team.js'
import { adminTranslator } from '../../locales/index.js'
import { HttpError } from '../http/errors.js'
import { lazily } from '../lazy.js'
import type { PasskeyRecord } from '../store/types.js'

/**
 * @simplewebauthn/server and the ASN.1 and X.509 libraries under it (about 270 ms of CPU to load) are
 * loaded at the first ceremony: a server that no operator signs in to, and every start, goes without.
 */
const webauthn = lazily(() => import('@simplewebauthn/server'))

/**
 * The relying party: SITE_URL's origin and host name when it is set (a deployment must set it),
 * else the address the browser used (development: `localhost`; an IP address cannot hold passkeys).
 */
export function relyingParty(app: FastifyInstance, request: FastifyRequest, configured: boolean): { origin: string; id: string } {
  const origin = configured ? new URL(app.siteUrl()).origin : `${request.protocol}://${request.host}`
  return { origin, id: new URL(origin).hostname }
}

/** A new passkey's name: the operator's own, or, left empty, the word for a passkey in their language. */
export const passkeyName = (typed: string | undefined, locale: Locale): string =>
  typed?.trim() || adminTranslator(locale)('account.unnamedPasskey')

/** A new operator's WebAuthn user handle: random, never derived from the address. */
export const newUserHandle = () => randomBytes(32).toString('base64url')

const toBytes = (base64url: string) => new Uint8Array(Buffer.from(base64url, 'base64url'))

async function keepChallenge(app: FastifyInstance, challenge: string, operatorId: number | null, userHandle: string | null) {
  const id = randomUUID()
  await app.store.team.putChallenge({
    id,
    challenge,
    operatorId,
    userHandle,
    expiresAt: new Date(Date.now() + TEAM_TIMES.challengeMs).toISOString(),
  })
  return id
}

/** Options for creating a passkey for `user` (existing passkeys excluded), and the challenge's id. */
export async function registrationOptions(
  app: FastifyInstance,
  rp: { id: string },
  user: { email: string; name: string; userHandle: string; operatorId: number | null; existing: PasskeyRecord[] },
) {
  const { generateRegistrationOptions } = await webauthn()
  const options = await generateRegistrationOptions({
    rpName: `${app.productName} waitlist`,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name || user.email,
    userID: toBytes(user.userHandle),
    attestationType: 'none',
    excludeCredentials: user.existing.map((passkey) => ({
      id: passkey.id,
      transports: passkey.transports,
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  })
  return { challengeId: await keepChallenge(app, options.challenge, user.operatorId, user.userHandle), options }
}

/** The passkey a registration made, once its challenge (used up here) and signature check out. */
export async function verifyRegistration(
  app: FastifyInstance,
  rp: { origin: string; id: string },
  challengeId: string,
  response: RegistrationResponseJSON,
  expected: { operatorId: number | null },
): Promise<{ passkey: Omit<PasskeyRecord, 'operator_id' | 'created_at' | 'last_used_at' | 'name'>; userHandle: string }> {
  // The library first: a challenge is used up only by a check that can run.
  const { verifyRegistrationResponse } = await webauthn()
  const challenge = await app.store.team.takeChallenge(challengeId)
  if (!challenge || challenge.operatorId !== expected.operatorId || !challenge.userHandle)
    throw new HttpError(400, 'invalid_challenge', 'The passkey ceremony expired or was already used: start again')
  const verified = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch((error: unknown) => {
    throw new HttpError(400, 'invalid_passkey', `The passkey was not accepted: ${(error as Error).message}`)
  })
  if (!verified.verified) throw new HttpError(400, 'invalid_passkey', 'The passkey was not accepted')
  const { credential } = verified.registrationInfo
  return {
    passkey: {
      id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
    },
    userHandle: challenge.userHandle,
  }
}

/** Options for signing in with any passkey of this site (discoverable), and the challenge's id. */
export async function authenticationOptions(app: FastifyInstance, rp: { id: string }) {
  const { generateAuthenticationOptions } = await webauthn()
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required' })
  return { challengeId: await keepChallenge(app, options.challenge, null, null), options }
}

/** Whether the sign-in's signature is the passkey's, for this challenge (used up here); its new counter. */
export async function verifyAuthentication(
  app: FastifyInstance,
  rp: { origin: string; id: string },
  challengeId: string,
  response: AuthenticationResponseJSON,
  passkey: PasskeyRecord,
): Promise<{ ok: true; counter: number } | { ok: false; why: string }> {
  // The library first: a sign-in it could not check is an error, not a failed sign-in.
  const { verifyAuthenticationResponse } = await webauthn()
  const challenge = await app.store.team.takeChallenge(challengeId)
  if (!challenge) return { ok: false, why: 'expired challenge' }
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.id,
        publicKey: toBytes(passkey.public_key),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    })
    return verified.verified ? { ok: true, counter: verified.authenticationInfo.newCounter } : { ok: false, why: 'signature' }
  } catch (error) {
    return { ok: false, why: (error as Error).message }
  }
}
