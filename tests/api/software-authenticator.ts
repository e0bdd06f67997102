/**
 * A software passkey authenticator for the API tests: a P-256 key made with WebCrypto, answering
 * registration options with a 'none' attestation and sign-in options with an assertion, byte for
 * byte as a real authenticator lays them out (authenticator data, COSE key, CBOR, DER signature),
 * as @simplewebauthn/browser would hand them to our API.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { toBase64Url } from '../../src/lib/domain/password.ts';

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

const sha256 = async (bytes: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
const utf8 = (text: string) => new TextEncoder().encode(text);

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

const uint32 = (value: number) => new Uint8Array([(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]);

/** An ECDSA signature as WebAuthn wants it: DER, where WebCrypto gives r and s side by side. */
function derSignature(raw: Uint8Array): Uint8Array<ArrayBuffer> {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
    const trimmed = bytes.slice(start);
    const body = trimmed[0] & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const sequence = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, sequence.length]), sequence);
}

export class SoftwareAuthenticator {
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  private counter = 0;
  private userHandle = '';

  private constructor(
    private readonly keys: CryptoKeyPair,
    readonly origin: string,
  ) {}

  static async create(origin = 'http://localhost'): Promise<SoftwareAuthenticator> {
    const keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    return new SoftwareAuthenticator(keys, origin);
  }

  get id(): string {
    return toBase64Url(this.credentialId);
  }

  private async authenticatorData(rpId: string, flags: number, attested: Uint8Array = new Uint8Array()) {
    this.counter += 1;
    return concat(await sha256(utf8(rpId)), new Uint8Array([flags]), uint32(this.counter), attested);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Uint8Array<ArrayBuffer> {
    return utf8(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** The answer to registration options: a new discoverable credential, attestation 'none'. */
  async register(options: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON> {
    this.userHandle = options.user.id;
    const raw = new Uint8Array(await crypto.subtle.exportKey('raw', this.keys.publicKey));
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, raw.slice(1, 33)],
        [-3, raw.slice(33, 65)],
      ]),
    );
    const attested = concat(new Uint8Array(16), new Uint8Array([0, this.credentialId.length]), this.credentialId, coseKey);
    const authData = await this.authenticatorData(
      options.rp.id ?? '',
      FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_CREDENTIAL,
      attested,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: toBase64Url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: toBase64Url(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** The answer to sign-in options: an assertion signed with this credential's key (`signWith` to sign with another). */
  async authenticate(options: PublicKeyCredentialRequestOptionsJSON, signWith?: CryptoKey): Promise<AuthenticationResponseJSON> {
    const authData = await this.authenticatorData(options.rpId ?? '', FLAG_USER_PRESENT | FLAG_USER_VERIFIED);
    const clientData = this.clientData('webauthn.get', options.challenge);
    const signed = concat(authData, await sha256(clientData));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, signWith ?? this.keys.privateKey, signed));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: toBase64Url(clientData),
        authenticatorData: toBase64Url(authData),
        signature: toBase64Url(derSignature(raw)),
        userHandle: this.userHandle || undefined,
      },
    };
  }
}
