/**
 * Confirming the pickup taker's number: a code is sent to it, the taker tells the buyer, the buyer
 * types it here. Until then the pickup details come to the buyer, never to a number nobody vouched
 * for. A confirmed number reloads the page, which then shows it confirmed.
 */
import { useState, type FormEvent } from 'react';
import { api, callOptions, unwrap } from '../../lib/browser/api-client.ts';
import { EMAIL_CODE_LENGTH } from '../../lib/config/accounts.ts';
import { codeProblem } from '../../lib/domain/validation.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { useCountdown } from '../auth/verification.tsx';
import { Field, SubmitRow } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import './orders.css';

interface Props {
  orderId: number;
  phone: string;
  messages: Messages;
}

export default function TakerPhoneConfirm({ orderId, phone, messages: m }: Props) {
  const t = scoped(m, 'orders.taker.');
  const hydrated = useHydrated();
  const [toast, showToast] = useToast();
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [resendIn, startCountdown] = useCountdown();
  const param = { id: String(orderId) };

  const send = useMutation<void, { resendAfterSeconds: number }>({
    messages: m,
    call: (_, idempotencyKey) => unwrap(api.v1.orders[':id']['taker-phone'].code.$post({ param }, callOptions({ idempotencyKey }))),
    onSuccess: ({ resendAfterSeconds }) => {
      send.renewKey();
      setSent(true);
      setError(undefined);
      startCountdown(resendAfterSeconds);
      showToast({ tone: 'success', title: t('sent', { phone }) });
    },
    onFailure: ({ text }) => {
      send.renewKey();
      showToast({ tone: 'error', title: text });
    },
  });

  const confirm = useMutation<string>({
    messages: m,
    call: (value, idempotencyKey) =>
      unwrap(api.v1.orders[':id']['taker-phone'].confirm.$post({ param, json: { code: value } }, callOptions({ idempotencyKey }))),
    busyAfterSuccess: true,
    onSuccess: () => location.reload(),
    onFailure: ({ text }) => {
      confirm.renewKey();
      setError(text);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = codeProblem(code);
    if (problem) {
      setError(format(m, `error.${problem}`));
      document.getElementById('taker-code')?.focus();
      return;
    }
    void confirm.run(code.trim());
  }

  return (
    <div className="taker-confirm">
      <p>{t('unconfirmed', { phone })}</p>
      <button type="button" className="orders-button" disabled={!hydrated || send.busy || resendIn > 0} onClick={() => void send.run()}>
        {resendIn > 0 ? format(m, 'auth.form.resendIn', { seconds: resendIn }) : t(sent ? 'resend' : 'send')}
      </button>
      {sent && (
        <form className="auth-form" noValidate onSubmit={submit} aria-label={t('formLabel')}>
          <p className="auth-hint">{t('askTaker', { phone })}</p>
          <Field
            id="taker-code"
            label={t('code')}
            value={code}
            onValue={(value) => {
              setCode(value);
              setError(undefined);
            }}
            error={error}
            inputMode="numeric"
            autoComplete="off"
            maxLength={EMAIL_CODE_LENGTH}
          />
          <SubmitRow busy={confirm.busy} label={t('confirm')} />
        </form>
      )}
      <Toast toast={toast} />
    </div>
  );
}
