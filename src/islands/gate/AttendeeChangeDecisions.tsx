/**
 * The real-name attendee changes waiting for the seller (or an operator): each request's show,
 * order and ticket, the attendee now and the one asked for (ID numbers masked), with Approve and
 * Refuse. A decided request leaves the list; one decided elsewhere meanwhile says so.
 */
import { useState } from 'react';
import { api, callOptions, unwrap } from '../../lib/browser/api-client.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import type { AttendeeChangePerson, AttendeeChangeView } from '../../lib/services/orders/attendee-changes.ts';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import '../shared/forms.css';
import './gate.css';

interface Props {
  requests: AttendeeChangeView[];
  messages: Messages;
}

type Decision = { request: AttendeeChangeView; decision: 'approve' | 'refuse' };

export default function AttendeeChangeDecisions({ requests: atLoad, messages: m }: Props) {
  const t = scoped(m, 'gate.changes.');
  const hydrated = useHydrated();
  const [requests, setRequests] = useState(atLoad);
  const [toast, showToast] = useToast();
  const deciding = useMutation<Decision, AttendeeChangeView>({
    messages: m,
    call: ({ request, decision }, idempotencyKey) =>
      unwrap(
        api.v1['attendee-changes'][':id'].decision.$post(
          { param: { id: String(request.id) }, json: { decision } },
          callOptions({ idempotencyKey }),
        ),
      ),
    onSuccess: (decided) => {
      setRequests((current) => current.filter((request) => request.id !== decided.id));
      showToast(
        decided.status === 'approved'
          ? { tone: 'success', title: t('approved', { name: decided.to.name }) }
          : { tone: 'success', title: t('refused', { name: decided.from.name }) },
      );
    },
    onFailure: ({ text }) => showToast({ tone: 'error', title: text }),
  });

  function decide(request: AttendeeChangeView, decision: Decision['decision']) {
    deciding.renewKey();
    void deciding.run({ request, decision });
  }

  const person = (label: string, who: AttendeeChangePerson) => (
    <>
      <dt>{label}</dt>
      <dd>
        {who.name}{' '}
        <span className="muted">
          {who.nationality} · {format(m, `profile.attendee.type.${who.idCardType}`)} {who.idCardNoMasked}
        </span>
      </dd>
    </>
  );

  return (
    <section aria-labelledby="changes-heading" className="gate-changes">
      <h2 id="changes-heading">{t('heading')}</h2>
      <p className="intro">{t('intro')}</p>
      {requests.length === 0 ? (
        <p className="empty">{t('none')}</p>
      ) : (
        <ul className="gate-change-list">
          {requests.map((request) => (
            <li key={request.id}>
              <p className="gate-change-show">
                {request.activity} <span className="muted">{request.session}</span>
              </p>
              <p className="muted">
                {t('order', { orderNo: request.orderNo })} ·{' '}
                {request.ticketNo ? t('ticket', { ticketNo: request.ticketNo }) : t('notTicketed')}
              </p>
              <dl>
                {person(t('from'), request.from)}
                {person(t('to'), request.to)}
              </dl>
              <div className="gate-change-actions">
                <button
                  type="button"
                  className="gate-staff-remove"
                  disabled={!hydrated || deciding.busy}
                  aria-label={t('refuseNamed', { name: request.to.name })}
                  onClick={() => decide(request, 'refuse')}
                >
                  {t('refuse')}
                </button>
                <button
                  type="button"
                  className="auth-submit"
                  disabled={!hydrated || deciding.busy}
                  aria-label={t('approveNamed', { name: request.to.name })}
                  onClick={() => decide(request, 'approve')}
                >
                  {t('approve')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Toast toast={toast} />
    </section>
  );
}
