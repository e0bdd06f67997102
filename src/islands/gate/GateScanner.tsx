/**
 * The door's check-in form: the entry code from a handheld scanner (which types it and presses
 * Enter) or from the keyboard, then Admit. The answer is shown large, green or red, with the ticket
 * or the reason, and the field is emptied and focused again for the next holder.
 */
import { useRef, useState, type FormEvent } from 'react';
import { api, unwrap, type ApiData } from '../../lib/api/client.ts';
import { scoped, type Messages } from '../../lib/i18n/messages.ts';
import { useHydrated, useValueTypedBeforeHydration } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import '../shared/forms.css';
import './gate.css';

interface Props {
  sessionId: number;
  admitted: number;
  issued: number;
  messages: Messages;
}

type Admission = ApiData<(typeof api.v1.gate.sessions)[':id']['admissions']['$post']>;
type Outcome = { admitted: true; admission: Admission } | { admitted: false; reason: string };

export default function GateScanner({ sessionId, admitted: admittedAtLoad, issued, messages: m }: Props) {
  const t = scoped(m, 'gate.');
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [admitted, setAdmitted] = useState(admittedAtLoad);
  const hydrated = useHydrated();

  const admission = useMutation({
    messages: m,
    call: (ticketCode: string) => {
      const admission = { param: { id: String(sessionId) }, json: { code: ticketCode } };
      return unwrap(api.v1.gate.sessions[':id'].admissions.$post(admission));
    },
    onSuccess: (admitted) => {
      setOutcome({ admitted: true, admission: admitted });
      setAdmitted((count) => count + 1);
      nextCode();
    },
    onFailure: ({ text }) => {
      setOutcome({ admitted: false, reason: text });
      nextCode();
    },
  });
  useValueTypedBeforeHydration(input, code, setCode);

  function nextCode() {
    setCode('');
    input.current?.focus();
  }

  function check(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) return input.current?.focus();
    void admission.run(code);
  }

  return (
    <>
      <p className="gate-count">{t('count', { admitted, issued })}</p>
      <form className="auth-form" noValidate onSubmit={check}>
        <fieldset className="auth-fieldset" disabled={!hydrated}>
          <div className="auth-field">
            <label htmlFor="gate-code">{t('code')}</label>
            <div className="auth-control">
              <input
                ref={input}
                id="gate-code"
                value={code}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={64}
                // biome-ignore lint/a11y/noAutofocus: gate staff scan or type a code the moment the page opens; it is the page's only task.
                autoFocus
                onChange={(event) => setCode(event.target.value)}
              />
            </div>
          </div>
          <button type="submit" className="auth-submit" disabled={admission.busy}>
            {t('admit')}
          </button>
        </fieldset>
      </form>
      <div className="gate-outcome-slot" role="status">
        {outcome && (
          <div className={outcome.admitted ? 'gate-outcome gate-admitted' : 'gate-outcome gate-refused'}>
            <p className="gate-verdict">{t(outcome.admitted ? 'admitted' : 'refused')}</p>
            {outcome.admitted ? (
              <>
                <p>{outcome.admission.activity}</p>
                <p>{t('ticket', { ticketNo: outcome.admission.ticketNo, tier: outcome.admission.tier })}</p>
                {outcome.admission.seat && <p>{t('seat', { seat: outcome.admission.seat })}</p>}
              </>
            ) : (
              <p>{outcome.reason}</p>
            )}
          </div>
        )}
      </div>
    </>
  );
}
