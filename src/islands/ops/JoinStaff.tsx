/**
 * An invitation's page, step by step: sign in with the code sent to the invited phone (skipped when
 * already signed in as that phone's account), accept the role, then add a passkey for the console.
 */
import { useState } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { setUser } from '../../lib/browser/session.ts';
import { type Messages, scoped } from '../../lib/i18n/messages.ts';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import AddPasskey from './AddPasskey.tsx';
import PhoneCodeSignIn, { type PhoneCode } from './PhoneCodeSignIn.tsx';
import './ops.css';

interface Props {
  messages: Messages;
  token: string;
  /** The invited phone, all but its last digits hidden. */
  phone: string;
  /** The role's name in the page's language. */
  roleName: string;
  signedInAsInvitee: boolean;
  consolePath: string;
}

type Step = 'signIn' | 'accept' | 'passkey';

export default function JoinStaff({ messages, token, phone, roleName, signedInAsInvitee, consolePath }: Props) {
  const t = scoped(messages, 'opsStaff.join.');
  const hydrated = useHydrated();
  const [step, setStep] = useState<Step>(signedInAsInvitee ? 'accept' : 'signIn');
  const [toast, showToast] = useToast();
  const param = { token };
  const accept = useMutation({
    messages,
    call: () => unwrap(api.v1['staff-invitations'][':token'].accept.$post({ param })),
    onSuccess: () => setStep('passkey'),
    onFailure: ({ text }) => showToast({ tone: 'error', title: t('failed'), detail: text }),
  });
  const sendCode = () => unwrap(api.v1['staff-invitations'][':token'].code.$post({ param }));
  const signIn = ({ code, captcha }: PhoneCode) =>
    unwrap(api.v1['staff-invitations'][':token']['sign-in'].$post({ param, json: { code, captcha } })).then(setUser);

  return (
    <div className="ops-panel">
      {step === 'signIn' && (
        <>
          <p>{t('signInFirst')}</p>
          <PhoneCodeSignIn messages={messages} fixedPhone={phone} send={sendCode} signIn={signIn} onSignedIn={() => setStep('accept')} />
        </>
      )}
      {step === 'accept' && (
        <button type="button" className="ops-primary" onClick={() => void accept.run()} disabled={!hydrated || accept.busy}>
          {t('accept')}
        </button>
      )}
      {step === 'passkey' && (
        <>
          <p role="status">{t('accepted', { role: roleName })}</p>
          <p>{t('addPasskey')}</p>
          <AddPasskey
            messages={messages}
            onAdded={() => showToast({ tone: 'success', title: scoped(messages, 'opsStaff.passkeys.')('added') })}
          />
          <a href={consolePath}>{t('toConsole')}</a>
        </>
      )}
      <Toast toast={toast} />
    </div>
  );
}
