/**
 * Signing in with a code sent to a phone, as the console's way back in when a passkey is lost, and
 * on an invitation's page for the invited phone: `send` and `signIn` say which API calls do it. A
 * graphic captcha is asked for once the server wants one (after wrong codes).
 */
import { type FormEvent, useState } from 'react';
import { callingCodeProblem, codeProblem, type FieldProblem, phoneProblem } from '../../lib/domain/validation.ts';
import { format, type Messages, scoped } from '../../lib/i18n/messages.ts';
import { wantsCaptcha } from '../auth/messages.ts';
import { CaptchaField, useCountdown } from '../auth/verification.tsx';
import { Field, PhoneFields, SubmitRow } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { type Failure, useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';

export interface PhoneCode {
  countryCode: string;
  phone: string;
  code: string;
  captcha: string | undefined;
}

interface Props {
  messages: Messages;
  /** Null: the phone is asked for; else the invited phone, shown masked, whose code the calls send and check. */
  fixedPhone: string | null;
  send: (phone: PhoneCode) => Promise<{ resendAfterSeconds?: number } | null>;
  signIn: (phone: PhoneCode) => Promise<unknown>;
  onSignedIn: () => void;
}

export default function PhoneCodeSignIn({ messages, fixedPhone, send, signIn, onSignedIn }: Props) {
  const t = scoped(messages, 'opsStaff.phone.');
  // Until React runs, a click would do nothing (or submit the form natively): the buttons wait for it.
  const hydrated = useHydrated();
  const [values, setValues] = useState({ countryCode: '+852', phone: '', code: '', captcha: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof values, string>>>({});
  const [captchaNonce, setCaptchaNonce] = useState<number | null>(null);
  const [countdown, startCountdown] = useCountdown();
  const [toast, showToast] = useToast();
  const asked = (): PhoneCode => ({ ...values, captcha: captchaNonce !== null ? values.captcha : undefined });

  function set(name: keyof typeof values, value: string) {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  }

  function check(rules: Partial<Record<keyof typeof values, () => FieldProblem | null>>): boolean {
    const found = Object.fromEntries(
      Object.entries(rules)
        .map(([name, rule]) => [name, rule()] as const)
        .filter(([, problem]) => problem !== null)
        .map(([name, problem]) => [name, format(messages, `error.${problem}` as never)]),
    );
    setErrors(found);
    return Object.keys(found).length === 0;
  }

  function fail(title: string, { text, field, cause }: Failure) {
    if (field) setErrors((current) => ({ ...current, [field]: text }));
    if (wantsCaptcha(cause) || captchaNonce !== null) {
      setCaptchaNonce(Date.now());
      setValues((current) => ({ ...current, captcha: '' }));
    }
    showToast({ tone: 'error', title, detail: text });
  }

  const sending = useMutation({
    messages,
    call: () => send(asked()),
    onSuccess: (sent) => {
      startCountdown(sent?.resendAfterSeconds ?? 60);
      showToast({ tone: 'success', title: t('codeSent') });
    },
    onFailure: (failure) => fail(t('sendFailed'), failure),
  });
  const signing = useMutation({
    messages,
    call: () => signIn(asked()),
    busyAfterSuccess: true,
    onSuccess: onSignedIn,
    onFailure: (failure) => fail(format(messages, 'opsStaff.signIn.failed'), failure),
  });

  const phoneRules = fixedPhone
    ? {}
    : { countryCode: () => callingCodeProblem(values.countryCode), phone: () => phoneProblem(values.phone) };
  function requestCode() {
    if (check(phoneRules)) void sending.run();
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    if (check({ ...phoneRules, code: () => codeProblem(values.code) })) void signing.run();
  }
  const sendLabel = fixedPhone ? format(messages, 'opsStaff.join.sendCode', { phone: fixedPhone }) : t('sendCode');

  return (
    <form className="ops-phone-code" onSubmit={submit} noValidate>
      {!fixedPhone && (
        <PhoneFields
          className="ops-phone"
          code={{
            id: 'ops-country',
            label: t('countryCode'),
            value: values.countryCode,
            onValue: (v) => set('countryCode', v),
            error: errors.countryCode,
          }}
          phone={{ id: 'ops-phone', label: t('number'), value: values.phone, onValue: (v) => set('phone', v), error: errors.phone }}
        />
      )}
      <button type="button" className="ops-secondary" onClick={requestCode} disabled={!hydrated || sending.busy || countdown > 0}>
        {countdown > 0 ? t('resendIn', { seconds: countdown }) : sendLabel}
      </button>
      <Field
        id="ops-code"
        label={t('code')}
        value={values.code}
        onValue={(v) => set('code', v)}
        error={errors.code}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
      />
      <CaptchaField
        id="ops-captcha"
        value={values.captcha}
        onValue={(v) => set('captcha', v)}
        nonce={captchaNonce}
        onRefresh={() => setCaptchaNonce(Date.now())}
        t={(key) => t(key)}
        error={errors.captcha}
      />
      <SubmitRow busy={!hydrated || signing.busy} label={t('submit')} />
      <Toast toast={toast} />
    </form>
  );
}
