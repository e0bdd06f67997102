/** Account settings: change the nickname (checked like the API checks it). */
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { nicknameProblem } from '../../lib/domain/validation.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { renameUser } from '../../lib/browser/session.ts';
import { Field } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';

interface Props {
  messages: Messages;
  nickname: string;
}

export default function NicknameForm({ messages, nickname: initial }: Props) {
  const t = scoped(messages, 'auth.settings.');
  const [nickname, setNickname] = useState(initial);
  const [error, setError] = useState<string>();
  const [toast, showToast] = useToast();
  const hydrated = useHydrated();
  const saving = useMutation({
    messages,
    call: (name: string) => unwrap(api.v1.user.profile.$put({ json: { nickname: name } })),
    onSuccess: (profile) => {
      setNickname(profile.nickname);
      renameUser(profile.nickname);
      showToast({ tone: 'success', title: t('nicknameSaved') });
    },
    onFailure: ({ text }) => {
      setError(text);
      showToast({ tone: 'error', title: t('nicknameFailed'), detail: text });
    },
  });

  function save(event: FormEvent) {
    event.preventDefault();
    const problem = nicknameProblem(nickname);
    setError(problem ? format(messages, `error.${problem}`) : undefined);
    if (problem) return document.getElementById('settings-nickname')?.focus();
    void saving.run(nickname);
  }

  return (
    <form className="auth-form" method="post" noValidate onSubmit={save}>
      <Field
        id="settings-nickname"
        label={t('nickname')}
        value={nickname}
        autoComplete="nickname"
        maxLength={60}
        error={error}
        onValue={(value) => {
          setNickname(value);
          setError(undefined);
        }}
      />
      <button type="submit" className="auth-submit" disabled={!hydrated || saving.busy}>
        {t('saveNickname')}
      </button>
      <Toast toast={toast} />
    </form>
  );
}
