/**
 * The staff's ways in, open to callers not yet signed in (the console's own routes are operator.ts's
 * and staff.ts's, behind staff roles):
 *
 *   POST v1/auth/passkey/options               WebAuthn request options for a usernameless passkey sign-in
 *   POST v1/auth/passkey/sign-in               { response }: the browser's answer; signs in as a phone code
 *                                              does (the same session cookies); both calls count toward a
 *                                              per-client limit (429 passkey_too_frequent)
 *   POST v1/staff-invitations/{token}/code     sends the sign-in code to the invited phone
 *   POST v1/staff-invitations/{token}/sign-in  { code, captcha? }: signs in as the invited phone's account
 *                                              (made if it has none)
 *   POST v1/staff-invitations/{token}/accept   the signed-in invitee takes the invited role
 *
 * The relying party (passkeys' host name and origin) is the configured public origin, never the
 * Host header; a local build without one uses the origin it is asked on.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { requirePublicOrigin } from '../../services/platform/public-origin.ts';
import { signInOptions, signInWithPasskey } from '../../services/staff/passkey-sign-in.ts';
import { acceptInvitation, sendInvitationCode, signInByInvitation } from '../../services/staff/invitations.ts';
import { relyingPartyOf, type RelyingParty } from '../../services/staff/webauthn.ts';
import { authDeps } from '../auth-deps.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { verificationCode } from '../params.ts';
import { signedIn } from '../session.ts';
import { answerSignedIn, captchaAttempt } from '../sign-in-cookies.ts';
import { input } from '../validate.ts';

/** The relying party of the request's configured public origin, named as the site. */
export function relyingParty<E extends ApiEnv>(c: Context<E>): RelyingParty {
  return relyingPartyOf(requirePublicOrigin(c.env, c.req.url), c.get('t')('site.brand'));
}

const base64Url = (max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/)
    .max(max);

/** The parts of a browser's WebAuthn answer both ceremonies share (@simplewebauthn/browser's JSON). */
const credentialAnswer = {
  id: base64Url(1400),
  rawId: base64Url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.unknown(),
};

/** A browser's answer to registration options (startRegistration). */
export const registrationAnswer = z.object({
  ...credentialAnswer,
  response: z.object({
    clientDataJSON: base64Url(4096),
    attestationObject: base64Url(16_384),
    authenticatorData: base64Url(16_384).optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64Url(4096).optional(),
  }),
});

/** A browser's answer to sign-in options (startAuthentication). */
export const authenticationAnswer = z.object({
  ...credentialAnswer,
  response: z.object({
    clientDataJSON: base64Url(4096),
    authenticatorData: base64Url(4096),
    signature: base64Url(1024),
    userHandle: base64Url(256).optional(),
  }),
});

const tokenParam = z.object({ token: base64Url(64).min(32) });
const invitationSignInBody = z.object({ code: verificationCode, captcha: z.string().max(16).optional() });

const doc = describe('Staff sign-in');

export const staffSignInRoutes = new Hono<ApiEnv>()
  .post('/v1/auth/passkey/options', doc.anyone('Options for signing in with a passkey (usernameless)'), async (c) => {
    const { db, clientKey, now } = await authDeps(c);
    return c.json(success(await signInOptions({ db, clientKey, now }, relyingParty(c))));
  })
  .post(
    '/v1/auth/passkey/sign-in',
    doc.anyone('Signs a staff member in with a passkey: the browser’s answer to the options'),
    input('json', z.object({ response: authenticationAnswer })),
    async (c) => {
      const { db, clientKey, now } = await authDeps(c);
      const response = c.req.valid('json').response as AuthenticationResponseJSON;
      return answerSignedIn(c, await signInWithPasskey({ db, clientKey, now }, relyingParty(c), response));
    },
  )
  .post(
    '/v1/staff-invitations/:token/code',
    doc.anyone('Sends the sign-in code to the phone a staff invitation is for'),
    input('param', tokenParam),
    async (c) => {
      await sendInvitationCode(await authDeps(c), c.req.valid('param').token);
      return c.json(success(null));
    },
  )
  .post(
    '/v1/staff-invitations/:token/sign-in',
    doc.anyone('Signs in with the invited phone’s code (its account is made if it has none)'),
    input('param', tokenParam),
    input('json', invitationSignInBody),
    async (c) => {
      const { code, captcha } = c.req.valid('json');
      const session = await signInByInvitation(await authDeps(c), c.req.valid('param').token, code, captchaAttempt(c, captcha));
      return answerSignedIn(c, session);
    },
  )
  .post(
    '/v1/staff-invitations/:token/accept',
    doc.user('Accepts a staff invitation: the signed-in invitee takes its role'),
    signedIn,
    input('param', tokenParam),
    async (c) => c.json(success(await acceptInvitation(c.var.scope, c.req.valid('param').token))),
  );
