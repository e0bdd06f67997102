/**
 * The interactive part of the payment page: the countdown to the deadline, the method picker and
 * the Pay button, the QR code (WeChat Pay, Alipay) or the provider's page in a new window (every
 * other method), the leave warning, and polling of the order's payment state until it has an
 * outcome, which it then shows by moving to the outcome page.
 */
import { useEffect, useRef, useState } from 'react';
import { api, ApiClientError, callOptions, newIdempotencyKey, unwrap, type ApiData } from '../../lib/browser/api-client.ts';
import { formatTimeLeft } from '../../lib/domain/order-pages.ts';
import { payPageFor, type PayOutcome } from '../../lib/domain/payment-outcome.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { useHydrated } from '../shared/hydration.ts';
import { failureText } from '../shared/messages.ts';
import { goToLogin } from '../shared/mutation.ts';
import './payment.css';

export interface MethodOption {
  id: string;
  label: string;
  qr: boolean;
}

interface Props {
  orderId: number;
  deadline: number;
  /** The server's clock when the page was rendered: the countdown follows it, not the phone's. */
  serverNow: number;
  amount: string;
  methods: MethodOption[];
  initialMethod: string;
  /** The outcome pages of this order, in the page's language. */
  outcomeHrefs: Record<PayOutcome, string>;
  pollMs: number;
  messages: Messages;
}

type PaymentStart = ApiData<(typeof api.v1.orders)[':id']['payments']['$post']>;

export default function PayPanel({ orderId, deadline, serverNow, amount, methods, initialMethod, outcomeHrefs, pollMs, messages }: Props) {
  const t = scoped(messages, 'payment.page.');
  const [method, setMethod] = useState(initialMethod);
  const [left, setLeft] = useState(deadline - serverNow);
  const [busy, setBusy] = useState(false);
  const [payment, setPayment] = useState<PaymentStart | null>(null);
  const [popupBlocked, setPopupBlocked] = useState(false);
  const [error, setError] = useState('');
  // Controls stay disabled until the island has hydrated: before that a tap would do nothing.
  const hydrated = useHydrated();
  // One key per method for this page view: a double-clicked Pay sends the same key, so the server answers the same payment.
  const keys = useRef(new Map<string, string>());
  const mine = useRef<number | null>(null);
  const leaving = useRef(false);
  const polling = useRef(false);
  const result = useRef<HTMLDivElement>(null);

  function go(outcome: PayOutcome) {
    leaving.current = true;
    location.replace(outcomeHrefs[outcome]);
  }

  async function poll() {
    if (polling.current || leaving.current) return;
    polling.current = true;
    try {
      const state = await unwrap(api.v1.orders[':id'].payment.$get({ param: { id: String(orderId) } }));
      const ownAttempt = state.paymentId !== null && state.paymentId === mine.current;
      const page = payPageFor({ orderStatus: state.orderStatus, paymentStatus: ownAttempt ? state.paymentStatus : null }, 'returned');
      if (page !== 'pay') go(page);
    } catch {
      // A missed poll is retried on the next tick; the page must not nag about a flaky network.
    } finally {
      polling.current = false;
    }
  }

  // The QR code or the link to the provider's page appears below the methods: bring it into view.
  useEffect(() => {
    if (payment) result.current?.scrollIntoView({ block: 'nearest' });
  }, [payment]);

  useEffect(() => {
    const offset = serverNow - Date.now();
    const tick = setInterval(() => setLeft(deadline - (Date.now() + offset)), 1000);
    return () => clearInterval(tick);
  }, [deadline, serverNow]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: one look when the deadline passes, not one each second after it.
  useEffect(() => {
    if (left <= 0) void poll();
  }, [left <= 0]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the listeners stay for the page; poll reads the latest state through refs, so it need not re-register them.
  useEffect(() => {
    // Coming back from the provider's window or a payment app: look at once.
    const onVisible = () => {
      if (document.visibilityState === 'visible') void poll();
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
    // While a payment started here is open, ask every few seconds (a QR code is paid on another device).
    const timer = payment ? setInterval(onVisible, pollMs) : undefined;
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', onVisible);
    };
  }, [pollMs, payment]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the warning's text is the page's, fixed while it is open.
  useEffect(() => {
    const warning = t('leaveWarning');
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      event.returnValue = warning;
    };
    // Links that leave in this window ask with the spec's words (browsers show their own text on unload).
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!link || link.getAttribute('target') === '_blank' || leaving.current) return;
      if (confirm(warning)) leaving.current = true;
      else event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, []);

  const chosen = methods.find((option) => option.id === method) ?? methods[0];
  const expired = left <= 0;

  async function pay() {
    setError('');
    // Opened within the tap, before any await, so that browsers do not block it as a pop-up.
    const popup = chosen.qr ? null : window.open('', '_blank');
    setBusy(true);
    let key = keys.current.get(chosen.id);
    if (!key) {
      key = newIdempotencyKey();
      keys.current.set(chosen.id, key);
    }
    try {
      const attempt = { param: { id: String(orderId) }, json: { method: chosen.id } };
      const started = await unwrap(api.v1.orders[':id'].payments.$post(attempt, callOptions({ idempotencyKey: key })));
      mine.current = started.paymentId;
      setPayment(started);
      if (popup) {
        popup.opener = null;
        popup.location.href = started.checkoutUrl;
      }
      setPopupBlocked(!chosen.qr && !popup);
    } catch (cause) {
      popup?.close();
      if (cause instanceof ApiClientError && cause.status === 401) return goToLogin();
      // Paid or closed meanwhile (another window, the deadline): the poll moves to the outcome.
      if (cause instanceof ApiClientError && cause.errorCode === 'order_not_payable') void poll();
      setError(failureText(cause, messages));
    } finally {
      setBusy(false);
    }
  }

  const shown = payment && payment.method === chosen.id ? payment : null;
  const newTab = format(messages, 'common.opensInNewTab');

  return (
    <div className="pay-panel">
      <section className="pay-timer" aria-labelledby="pay-time-label">
        <h2 id="pay-time-label">{t('timeLeft')}</h2>
        <p className="pay-countdown" role="timer">
          {formatTimeLeft(left)}
        </p>
        {expired && <p className="pay-note">{t('expired')}</p>}
      </section>

      <fieldset className="pay-methods" disabled={!hydrated || expired}>
        <legend>{t('methods')}</legend>
        {methods.map((option) => (
          <label key={option.id} className="pay-method">
            <input type="radio" name="method" value={option.id} checked={option.id === chosen.id} onChange={() => setMethod(option.id)} />
            <span className="pay-method-name">{option.label}</span>
            <span className="pay-method-note">{option.qr ? t('methodQr') : t('methodNewPage')}</span>
          </label>
        ))}
      </fieldset>

      <button type="button" className="pay-button" disabled={!hydrated || busy || expired} onClick={pay}>
        {busy ? t('starting') : t('pay', { amount })}
      </button>
      {error && (
        <p className="pay-error" role="alert">
          {error}
        </p>
      )}

      <div ref={result}>
        {shown?.qrSvg && (
          <figure className="pay-qr">
            <img
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(shown.qrSvg)}`}
              alt={t('qrAlt', { method: chosen.label })}
              width={220}
              height={220}
            />
            <figcaption>{t('qrScan', { method: chosen.label, amount })}</figcaption>
            <a href={shown.checkoutUrl} target="_blank" rel="noopener">
              {t('qrSameDevice')}
              <span className="visually-hidden"> {newTab}</span>
            </a>
          </figure>
        )}
        {shown && !shown.qrSvg && (
          <div className="pay-redirect">
            <p>{popupBlocked ? t('popupBlocked') : t('newPageOpened')}</p>
            <a href={shown.checkoutUrl} target="_blank" rel="noopener">
              {t('openPaymentPage')}
              <span className="visually-hidden"> {newTab}</span>
            </a>
          </div>
        )}
      </div>
      <p className="pay-status" role="status">
        {shown ? t('waiting') : ''}
      </p>
    </div>
  );
}
