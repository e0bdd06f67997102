/** An operator invites a phone number to a staff role; the invitation's link is shown once, to copy and pass on. */
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { STAFF_ROLES, type StaffRole } from '../../lib/domain/staff.ts';
import { callingCodeProblem, phoneProblem } from '../../lib/domain/validation.ts';
import { format, type Messages, scoped } from '../../lib/i18n/messages.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { PhoneFields, SubmitRow } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';

interface Props {
  messages: Messages;
  locale: string;
  onInvited: () => void;
}

export default function InviteForm({ messages, locale, onInvited }: Props) {
  const t = scoped(messages, 'opsStaff.invite.');
  const hydrated = useHydrated();
  const [values, setValues] = useState({ countryCode: '+852', phone: '', role: 'editor' as StaffRole });
  const [errors, setErrors] = useState<Partial<Record<'countryCode' | 'phone' | 'role', string>>>({});
  const [created, setCreated] = useState<{ link: string; expiresAt: number } | null>(null);
  const [toast, showToast] = useToast();
  const set = (name: keyof typeof values, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const inviting = useMutation({
    messages,
    call: () => unwrap(api.v1.operator.staff.invitations.$post({ json: values })),
    onSuccess: (invitation) => {
      setCreated({ link: invitation.link, expiresAt: invitation.expiresAt });
      setValues((current) => ({ ...current, phone: '' }));
      showToast({ tone: 'success', title: t('created') });
      onInvited();
    },
    onFailure: ({ text, field }) => {
      if (field) setErrors((current) => ({ ...current, [field]: text }));
      showToast({ tone: 'error', title: t('failed'), detail: text });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      countryCode: callingCodeProblem(values.countryCode),
      phone: phoneProblem(values.phone),
    };
    const shown = Object.fromEntries(
      Object.entries(found)
        .filter(([, problem]) => problem)
        .map(([name, problem]) => [name, format(messages, `error.${problem}` as never)]),
    );
    setErrors(shown);
    if (Object.keys(shown).length === 0) void inviting.run();
  }

  async function copy(link: string) {
    await navigator.clipboard?.writeText(link);
    showToast({ tone: 'success', title: t('copied') });
  }

  return (
    <section className="ops-panel" aria-labelledby="ops-invite-heading">
      <h2 id="ops-invite-heading">{t('heading')}</h2>
      <form className="ops-panel" onSubmit={submit} noValidate>
        <PhoneFields
          className="ops-phone"
          code={{
            id: 'ops-invite-country',
            label: format(messages, 'opsStaff.phone.countryCode'),
            value: values.countryCode,
            onValue: (v) => set('countryCode', v),
            error: errors.countryCode,
          }}
          phone={{
            id: 'ops-invite-phone',
            label: format(messages, 'opsStaff.phone.number'),
            value: values.phone,
            onValue: (v) => set('phone', v),
            error: errors.phone,
          }}
        />
        <SelectField
          id="ops-invite-role"
          label={t('role')}
          value={values.role}
          onValue={(v) => set('role', v)}
          options={STAFF_ROLES.map((role) => ({ code: role, name: format(messages, `ops.role.${role}`) }))}
        />
        <SubmitRow busy={!hydrated || inviting.busy} label={t('submit')} />
      </form>
      {created && (
        <div className="ops-link-box">
          <p>{t('link', { date: new Date(created.expiresAt).toLocaleString(locale, { timeZone: 'UTC', timeZoneName: 'short' }) })}</p>
          <input
            id="ops-invite-link"
            aria-label={t('linkLabel')}
            readOnly
            value={created.link}
            onFocus={(event) => event.currentTarget.select()}
          />
          <button type="button" className="ops-secondary" onClick={() => void copy(created.link)}>
            {t('copy')}
          </button>
        </div>
      )}
      <Toast toast={toast} />
    </section>
  );
}
