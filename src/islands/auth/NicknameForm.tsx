/** Account settings: change the nickname (checked like the API checks it). */
import { useState, type FormEvent } from 'react';
import { request } from '../../lib/api/client.ts';
import { nicknameProblem } from '../../lib/domain/validation.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { renameUser } from '../../lib/stores/session.ts';
import { failureText } from './messages.ts';
import { Field, Toast, useHydrated, useToast } from './ui.tsx';
import './auth.css';

interface Props {
  messages: Messages;
  nickname: string;
}

export default function NicknameForm({ messages, nickname: initial }: Props) {
  const t = scoped(messages, 'auth.settings.');
  const [nickname, setNickname] = useState(initial);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [toast, showToast] = useToast();
  const hydrated = useHydrated();

  async function save(event: FormEvent) {
    event.preventDefault();
    const problem = nicknameProblem(nickname);
    setError(problem ? format(messages, `error.${problem}`) : undefined);
    if (problem) return document.getElementById('settings-nickname')?.focus();
    setBusy(true);
    try {
      const profile = await request<{ nickname: string }>('v1/user/profile', { method: 'PUT', body: { nickname } });
      setNickname(profile.nickname);
      renameUser(profile.nickname);
      showToast({ tone: 'success', title: t('nicknameSaved') });
    } catch (cause) {
      const text = failureText(cause, messages);
      setError(text);
      showToast({ tone: 'error', title: t('nicknameFailed'), detail: text });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="auth-form" method="post" noValidate onSubmit={save}>
      <fieldset className="auth-fieldset" disabled={!hydrated}>
      <Field
        id="settings-nickname" label={t('nickname')} value={nickname} autoComplete="nickname" maxLength={60} error={error}
        onChange={(event) => { setNickname(event.target.value); setError(undefined); }}
      />
      <button type="submit" className="auth-submit" disabled={busy}>{t('saveNickname')}</button>
      </fieldset>
      <Toast toast={toast} />
    </form>
  );
}
