/**
 * The staff screen's working part: invite someone, see the staff with their roles and passkeys,
 * change a member's roles or remove them, and the latest invitations (revoke an open one). After
 * each change the lists are read again from the API.
 */
import { useState } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import type { InvitationStatus } from '../../lib/domain/staff-access.ts';
import { STAFF_ROLES, type StaffRole } from '../../lib/domain/staff.ts';
import { format, type Messages, scoped } from '../../lib/i18n/messages.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import InviteForm from './InviteForm.tsx';
import './ops.css';

export interface Member {
  userId: number;
  nickname: string;
  phone: string | null;
  email: string | null;
  roles: StaffRole[];
  passkeys: number;
}

export interface InvitationRow {
  id: number;
  role: StaffRole;
  phone: string;
  invitedBy: string | null;
  expiresAt: number;
  status: InvitationStatus;
}

interface Props {
  messages: Messages;
  locale: string;
  members: Member[];
  invitations: InvitationRow[];
}

type Change = { kind: 'roles'; userId: number; roles: StaffRole[] } | { kind: 'remove'; userId: number } | { kind: 'revoke'; id: number };

function call(change: Change) {
  if (change.kind === 'roles') {
    return unwrap(api.v1.operator.staff[':userId'].roles.$put({ param: { userId: String(change.userId) }, json: { roles: change.roles } }));
  }
  if (change.kind === 'remove') return unwrap(api.v1.operator.staff[':userId'].$delete({ param: { userId: String(change.userId) } }));
  return unwrap(api.v1.operator.staff.invitations[':id'].revoke.$post({ param: { id: String(change.id) } }));
}

export default function StaffManager({ messages, locale, members: initialMembers, invitations: initialInvitations }: Props) {
  const t = scoped(messages, 'opsStaff.');
  const [members, setMembers] = useState(initialMembers);
  const [invitations, setInvitations] = useState(initialInvitations);
  const [chosen, setChosen] = useState<Record<number, StaffRole[]>>({});
  const [toast, showToast] = useToast();
  const roleName = (role: StaffRole) => format(messages, `ops.role.${role}`);
  const date = (at: number) => new Date(at).toLocaleString(locale, { timeZone: 'UTC', timeZoneName: 'short' });

  async function reload() {
    const [staff, invited] = await Promise.all([unwrap(api.v1.operator.staff.$get()), unwrap(api.v1.operator.staff.invitations.$get())]);
    setMembers(staff);
    setInvitations(invited);
    setChosen({});
  }

  const change = useMutation<Change>({
    messages,
    call,
    onSuccess: (_, done) => {
      const title = done.kind === 'roles' ? t('staff.rolesSaved') : done.kind === 'remove' ? t('staff.removed') : t('invitations.revoked');
      showToast({ tone: 'success', title });
      void reload();
    },
    onFailure: ({ text }) => showToast({ tone: 'error', title: t('staff.failed'), detail: text }),
  });

  function toggle(member: Member, role: StaffRole, on: boolean) {
    const current = chosen[member.userId] ?? member.roles;
    const next = on ? [...current, role] : current.filter((held) => held !== role);
    setChosen((all) => ({ ...all, [member.userId]: STAFF_ROLES.filter((known) => next.includes(known)) }));
  }

  function saveRoles(member: Member) {
    const roles = chosen[member.userId] ?? member.roles;
    if (roles.length === 0) return showToast({ tone: 'error', title: t('staff.failed'), detail: t('staff.rolesNeeded') });
    void change.run({ kind: 'roles', userId: member.userId, roles });
  }

  return (
    <div className="ops-panel">
      <InviteForm messages={messages} locale={locale} onInvited={() => void reload()} />
      <section aria-labelledby="ops-members-heading">
        <h2 id="ops-members-heading">{t('staff.members')}</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('staff.member')}</th>
              <th scope="col">{t('staff.roles')}</th>
              <th scope="col">{t('staff.passkeys')}</th>
              <th scope="col">{t('staff.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.userId}>
                <td>
                  <strong>{member.nickname}</strong>
                  <br />
                  {member.phone ?? member.email}
                </td>
                <td>
                  <fieldset className="ops-roles">
                    <legend>{t('staff.roles')}</legend>
                    {STAFF_ROLES.map((role) => (
                      <label key={role}>
                        <input
                          type="checkbox"
                          checked={(chosen[member.userId] ?? member.roles).includes(role)}
                          onChange={(event) => toggle(member, role, event.currentTarget.checked)}
                        />
                        {roleName(role)}
                      </label>
                    ))}
                  </fieldset>
                </td>
                <td>{member.passkeys}</td>
                <td className="ops-row">
                  <button type="button" className="ops-secondary" disabled={change.busy} onClick={() => saveRoles(member)}>
                    {t('staff.saveRoles')}
                  </button>
                  <button
                    type="button"
                    className="ops-danger"
                    disabled={change.busy}
                    onClick={() =>
                      window.confirm(t('staff.removeConfirm', { name: member.nickname })) &&
                      void change.run({ kind: 'remove', userId: member.userId })
                    }
                  >
                    {t('staff.remove')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="ops-invitations-heading">
        <h2 id="ops-invitations-heading">{t('invitations.heading')}</h2>
        {invitations.length === 0 ? (
          <p>{t('invitations.none')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('invitations.phone')}</th>
                <th scope="col">{t('invite.role')}</th>
                <th scope="col">{t('invitations.invitedBy')}</th>
                <th scope="col">{t('invitations.expires')}</th>
                <th scope="col">{t('invitations.status')}</th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((invitation) => (
                <tr key={invitation.id}>
                  <td>{invitation.phone}</td>
                  <td>{roleName(invitation.role)}</td>
                  <td>{invitation.invitedBy}</td>
                  <td>{date(invitation.expiresAt)}</td>
                  <td className="ops-row">
                    {t(`invitations.status.${invitation.status}`)}
                    {invitation.status === 'open' && (
                      <button
                        type="button"
                        className="ops-secondary"
                        disabled={change.busy}
                        onClick={() => void change.run({ kind: 'revoke', id: invitation.id })}
                      >
                        {t('invitations.revoke')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <Toast toast={toast} />
    </div>
  );
}
