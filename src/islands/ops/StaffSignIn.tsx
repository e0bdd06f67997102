/**
 * The console's sign-in: a passkey first (usernameless: the browser offers the passkeys it holds
 * for us), and the phone code as the way back in when a passkey is lost, after which the staff
 * member adds a new one on their passkeys page.
 */
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { setUser } from '../../lib/browser/session.ts';
import { type Messages, scoped } from '../../lib/i18n/messages.ts';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import { promptClosed, signInWithPasskey } from './passkey-calls.ts';
import PhoneCodeSignIn, { type PhoneCode } from './PhoneCodeSignIn.tsx';
import './ops.css';

interface Props {
  messages: Messages;
  /** Where to go after a passkey sign-in: the console page that sent the person here, or the console's home. */
  returnTo: string;
  /** Where to go after signing in with the phone code: the passkeys page, to add a new one. */
  passkeysPath: string;
}

const sendCode = ({ countryCode, phone }: PhoneCode) =>
  unwrap(api.v3.user.sendLoginCode.$post({ json: { channel: 'phone', countryCode, phone } }));
const codeSignIn = ({ countryCode, phone, code, captcha }: PhoneCode) =>
  unwrap(api.v1.user.login.$post({ json: { loginType: 'code', countryCode, phone, code, captcha, agreement: true } })).then(setUser);

export default function StaffSignIn({ messages, returnTo, passkeysPath }: Props) {
  const t = scoped(messages, 'opsStaff.signIn.');
  const hydrated = useHydrated();
  const [toast, showToast] = useToast();
  const passkey = useMutation({
    messages,
    call: signInWithPasskey,
    busyAfterSuccess: true,
    onSuccess: (info) => {
      setUser(info);
      window.location.assign(returnTo);
    },
    onFailure: ({ text, cause }) => showToast({ tone: 'error', title: t('failed'), detail: promptClosed(cause) ? t('cancelled') : text }),
  });
  const supported = !hydrated || browserSupportsWebAuthn();

  return (
    <div className="ops-sign-in">
      <p>{t('intro')}</p>
      {supported ? (
        <button type="button" className="ops-primary" onClick={() => void passkey.run()} disabled={!hydrated || passkey.busy}>
          {t('passkey')}
        </button>
      ) : (
        <p role="alert">{t('unsupported')}</p>
      )}
      <Toast toast={toast} />
      {/* Not controlled by React: a summary clicked before hydration opens it all the same, with the form inside. */}
      <details className="ops-recovery">
        <summary>{t('lost')}</summary>
        <p>{t('recoveryIntro')}</p>
        <PhoneCodeSignIn
          messages={messages}
          fixedPhone={null}
          send={sendCode}
          signIn={codeSignIn}
          onSignedIn={() => window.location.assign(passkeysPath)}
        />
      </details>
    </div>
  );
}
