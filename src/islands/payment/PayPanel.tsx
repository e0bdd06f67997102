/**
 * The interactive part of the payment page: the countdown to the deadline, the method picker and
 * the Pay button, the QR code (WeChat Pay, Alipay) or the provider's page in a new window (every
 * other method), the leave warning, and polling of the order's payment state until it has an
 * outcome, which it then shows by moving to the outcome page.
 */
import { useEffect, useRef, useState } from 'react';
import { formatTimeLeft } from '../../lib/domain/order-pages.ts';
import type { PayOutcome } from '../../lib/domain/payment-outcome.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { useHydrated } from '../shared/hydration.ts';
import { usePayment, type MethodOption, type PaymentStart } from './usePayment.ts';
import './payment.css';

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

export default function PayPanel({ orderId, deadline, serverNow, amount, methods, initialMethod, outcomeHrefs, pollMs, messages }: Props) {
  const t = scoped(messages, 'payment.page.');
  const [method, setMethod] = useState(initialMethod);
  // Controls stay disabled until the island has hydrated: before that a tap would do nothing.
  const hydrated = useHydrated();
  const leaveWarning = t('leaveWarning');
  const { left, payment, popupBlocked, error, busy, pay } = usePayment({
    orderId,
    deadline,
    serverNow,
    outcomeHrefs,
    pollMs,
    messages,
    leaveWarning,
  });
  const result = useRef<HTMLDivElement>(null);

  // The QR code or the link to the provider's page appears below the methods: bring it into view.
  useEffect(() => {
    if (payment) result.current?.scrollIntoView({ block: 'nearest' });
  }, [payment]);

  const chosen = methods.find((option) => option.id === method) ?? methods[0];
  const expired = left <= 0;
  const shown = payment && payment.method === chosen.id ? payment : null;

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

      <button type="button" className="pay-button" disabled={!hydrated || busy || expired} onClick={() => pay(chosen)}>
        {busy ? t('starting') : t('pay', { amount })}
      </button>
      {error && (
        <p className="pay-error" role="alert">
          {error}
        </p>
      )}

      <div ref={result}>
        {shown && <StartedPayment payment={shown} method={chosen} amount={amount} popupBlocked={popupBlocked} messages={messages} />}
      </div>
      <p className="pay-status" role="status">
        {shown ? t('waiting') : ''}
      </p>
    </div>
  );
}

interface StartedProps {
  payment: PaymentStart;
  method: MethodOption;
  amount: string;
  popupBlocked: boolean;
  messages: Messages;
}

/** The payment started with the chosen method: its QR code, or the link to the provider's page opened in a new window. */
function StartedPayment({ payment, method, amount, popupBlocked, messages }: StartedProps) {
  const t = scoped(messages, 'payment.page.');
  const newTab = <span className="visually-hidden"> {format(messages, 'common.opensInNewTab')}</span>;
  if (payment.qrSvg) {
    return (
      <figure className="pay-qr">
        <img
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(payment.qrSvg)}`}
          alt={t('qrAlt', { method: method.label })}
          width={220}
          height={220}
        />
        <figcaption>{t('qrScan', { method: method.label, amount })}</figcaption>
        <a href={payment.checkoutUrl} target="_blank" rel="noopener">
          {t('qrSameDevice')}
          {newTab}
        </a>
      </figure>
    );
  }
  return (
    <div className="pay-redirect">
      <p>{popupBlocked ? t('popupBlocked') : t('newPageOpened')}</p>
      <a href={payment.checkoutUrl} target="_blank" rel="noopener">
        {t('openPaymentPage')}
        {newTab}
      </a>
    </div>
  );
}
