/** The console's passkey ceremonies in the browser: our API's options, the browser's prompt (@simplewebauthn/browser), our API's check. */
import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';
import { api, unwrap } from '../../lib/browser/api-client.ts';

/** Signs in with a passkey the browser offers (usernameless); the API sets the session's cookies. */
export async function signInWithPasskey() {
  // As JSON the options carry no buffers: the typed client's reading of the server's type only differs there.
  const optionsJSON = (await unwrap(api.v1.auth.passkey.options.$post())) as PublicKeyCredentialRequestOptionsJSON;
  const response = await startAuthentication({ optionsJSON });
  return unwrap(api.v1.auth.passkey['sign-in'].$post({ json: { response } }));
}

/** Creates a passkey for the signed-in staff member and keeps it under `name`. */
export async function addPasskey(name: string) {
  const optionsJSON = (await unwrap(api.v1.operator.passkeys.options.$post())) as PublicKeyCredentialCreationOptionsJSON;
  const response = await startRegistration({ optionsJSON });
  return unwrap(api.v1.operator.passkeys.$post({ json: { response, name } }));
}

/** The person closed the browser's prompt, or it timed out: no failure worth more than a hint. */
export function promptClosed(cause: unknown): boolean {
  const error = cause instanceof WebAuthnError ? (cause.cause as Error | undefined) : (cause as Error | undefined);
  return error?.name === 'NotAllowedError' || error?.name === 'AbortError';
}

/** What the console's passkey islands receive: their texts, the role names and the failures without an answer. */
export const PASSKEY_MESSAGE_PREFIXES = ['opsStaff.', 'ops.role.', 'error.network', 'error.timeout'] as const;
