/**
 * What the payment page does besides showing it: the countdown to the deadline, starting a payment
 * (one Idempotency-Key per method for this page view), polling the order's payment state until it
 * has an outcome and then moving to the outcome page, and the warning before leaving meanwhile.
 */
import { useEffect, useRef, useState } from 'react';
import { api, callOptions, unwrap, type ApiData } from '../../lib/browser/api-client.ts';
import { payPageFor, type PayOutcome } from '../../lib/domain/payment-outcome.ts';
import type { Messages } from '../../lib/i18n/messages.ts';
import { useMutation } from '../shared/mutation.ts';

export interface MethodOption {
  id: string;
  label: string;
  qr: boolean;
}

export type PaymentStart = ApiData<(typeof api.v1.orders)[':id']['payments']['$post']>;

interface Options {
  orderId: number;
  deadline: number;
  serverNow: number;
  outcomeHrefs: Record<PayOutcome, string>;
  pollMs: number;
  messages: Messages;
  /** The text that asks before leaving the page while it waits. */
  leaveWarning: string;
}

/** A payment to start: the method, and the window opened for its provider's page (null for a QR code, or when blocked). */
interface Attempt {
  method: MethodOption;
  popup: Window | null;
}

export function usePayment({ orderId, deadline, serverNow, outcomeHrefs, pollMs, messages, leaveWarning }: Options) {
  const [left, setLeft] = useState(deadline - serverNow);
  const [payment, setPayment] = useState<PaymentStart | null>(null);
  const [popupBlocked, setPopupBlocked] = useState(false);
  const [error, setError] = useState('');
  const mine = useRef<number | null>(null);
  const leaving = useRef(false);
  const polling = useRef(false);

  async function poll() {
    if (polling.current || leaving.current) return;
    polling.current = true;
    try {
      const state = await unwrap(api.v1.orders[':id'].payment.$get({ param: { id: String(orderId) } }));
      const ownAttempt = state.paymentId !== null && state.paymentId === mine.current;
      const page = payPageFor({ orderStatus: state.orderStatus, paymentStatus: ownAttempt ? state.paymentStatus : null }, 'returned');
      if (page !== 'pay') {
        leaving.current = true;
        location.replace(outcomeHrefs[page]);
      }
    } catch {
      // A missed poll is retried on the next tick; the page must not nag about a flaky network.
    } finally {
      polling.current = false;
    }
  }

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

  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      event.returnValue = leaveWarning;
    };
    // Links that leave in this window ask with the spec's words (browsers show their own text on unload).
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!link || link.getAttribute('target') === '_blank' || leaving.current) return;
      if (confirm(leaveWarning)) leaving.current = true;
      else event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [leaveWarning]);

  // One key per method for this page view: a double-clicked Pay sends the same key, so the server answers the same payment.
  const paying = useMutation<Attempt, PaymentStart>({
    messages,
    keyPer: ({ method }) => method.id,
    call: async ({ popup, method }, idempotencyKey) => {
      const attempt = { param: { id: String(orderId) }, json: { method: method.id } };
      try {
        return await unwrap(api.v1.orders[':id'].payments.$post(attempt, callOptions({ idempotencyKey })));
      } catch (cause) {
        popup?.close();
        throw cause;
      }
    },
    onSuccess: (started, { method, popup }) => {
      mine.current = started.paymentId;
      setPayment(started);
      if (popup) {
        popup.opener = null;
        popup.location.href = started.checkoutUrl;
      }
      setPopupBlocked(!method.qr && !popup);
    },
    onFailure: ({ text, errorCode }) => {
      // Paid or closed meanwhile (another window, the deadline): the poll moves to the outcome.
      if (errorCode === 'order_not_payable') void poll();
      setError(text);
    },
  });

  function pay(method: MethodOption) {
    if (paying.busy) return;
    setError('');
    // Opened within the tap, before any await, so that browsers do not block it as a pop-up.
    const popup = method.qr ? null : window.open('', '_blank');
    void paying.run({ method, popup });
  }

  return { left, payment, popupBlocked, error, busy: paying.busy, pay };
}
