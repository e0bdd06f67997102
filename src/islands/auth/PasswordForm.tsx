/**
 * Account settings: change the password (old and new), or set a first one for an account made by
 * phone code. Other sessions of the account end on the server; this one stays signed in.
 */
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { captchaProblem, passwordProblem, type FieldProblem } from '../../lib/domain/validation.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { bindFields, PasswordField } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import { wantsCaptcha } from './messages.ts';
import { CaptchaField } from './verification.tsx';

interface Props {
  messages: Messages;
  hasPassword: boolean;
}

type FieldName = 'oldPassword' | 'newPassword' | 'captcha';

export default function PasswordForm({ messages, hasPassword: initiallyHasPassword }: Props) {
  const t = scoped(messages, 'auth.settings.');
  const [hasPassword, setHasPassword] = useState(initiallyHasPassword);
  const [values, setValues] = useState<Record<FieldName, string>>({ oldPassword: '', newPassword: '', captcha: '' });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [captchaNonce, setCaptchaNonce] = useState<number | null>(null);
  const [toast, showToast] = useToast();
  const hydrated = useHydrated();
  const saving = useMutation({
    messages,
    call: (json: { oldPassword?: string; newPassword: string; captcha?: string }) => unwrap(api.v1.user.password.$put({ json })),
    onSuccess: () => {
      setValues({ oldPassword: '', newPassword: '', captcha: '' });
      setCaptchaNonce(null);
      setHasPassword(true);
      showToast({ tone: 'success', title: t('passwordChanged') });
    },
    onFailure: ({ text, field, cause }) => {
      if (field) setErrors((current) => ({ ...current, [field]: text }));
      if (wantsCaptcha(cause) || captchaNonce !== null) {
        setCaptchaNonce(Date.now());
        setValues((current) => ({ ...current, captcha: '' }));
      }
      showToast({ tone: 'error', title: t('changeFailed'), detail: text });
    },
  });

  const set = (name: FieldName, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const field = bindFields('settings', values, errors, set);
  const password = (name: 'oldPassword' | 'newPassword', autoComplete: string, hint?: string) => (
    <PasswordField {...field(name)} label={t(name)} showLabel={t('showPassword')} autoComplete={autoComplete} maxLength={64} hint={hint} />
  );

  function save(event: FormEvent) {
    event.preventDefault();
    const problems: [FieldName, FieldProblem | null][] = [
      // The old password is only checked for presence: it may predate today's rules.
      ['oldPassword', hasPassword && values.oldPassword === '' ? 'password_required' : null],
      ['newPassword', passwordProblem(values.newPassword, true)],
      ['captcha', captchaNonce !== null ? captchaProblem(values.captcha) : null],
    ];
    const found = Object.fromEntries(
      problems
        .filter((entry): entry is [FieldName, FieldProblem] => entry[1] !== null)
        .map(([name, problem]) => [name, format(messages, `error.${problem}`)]),
    );
    setErrors(found);
    const first = problems.find(([, problem]) => problem);
    if (first) return document.getElementById(`settings-${first[0]}`)?.focus();

    void saving.run({
      oldPassword: hasPassword ? values.oldPassword : undefined,
      newPassword: values.newPassword,
      captcha: captchaNonce !== null ? values.captcha : undefined,
    });
  }

  return (
    <form className="auth-form" method="post" noValidate onSubmit={save}>
      {hasPassword && password('oldPassword', 'current-password')}
      {password('newPassword', 'new-password', t('passwordHint'))}
      <CaptchaField {...field('captcha')} nonce={captchaNonce} onRefresh={() => setCaptchaNonce(Date.now())} t={t} />
      <button type="submit" className="auth-submit" disabled={!hydrated || saving.busy}>
        {t(hasPassword ? 'changePassword' : 'setPassword')}
      </button>
      <Toast toast={toast} />
    </form>
  );
}
