/**
 * The time left to pay an order (SPEC.md section 6: payment shows a countdown). It counts from the
 * server's clock, not the phone's, so a phone set to the wrong time still shows the right minutes;
 * when it reaches zero the page reloads once, and the server (which expires overdue orders when
 * they are read) shows the order cancelled.
 */
import { useEffect, useState } from 'react';
import { formatTimeLeft } from '../../lib/domain/order-pages.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import './orders.css';

interface Props {
  /** Milliseconds left to pay when the server rendered the page. */
  remainingMs: number;
  messages: Messages;
}

export default function PayCountdown({ remainingMs, messages: m }: Props) {
  const [left, setLeft] = useState(remainingMs);

  useEffect(() => {
    if (remainingMs <= 0) return;
    const start = performance.now();
    let timer = 0;
    const tick = () => {
      const now = remainingMs - (performance.now() - start);
      setLeft(now);
      if (now <= 0) {
        location.reload();
        return;
      }
      // Wake at the next whole second shown, so the number never lags.
      timer = window.setTimeout(tick, now % 1000 || 1000);
    };
    tick();
    return () => clearTimeout(timer);
  }, [remainingMs]);

  return (
    <p className="orders-countdown" role="timer">
      {left > 0 ? format(m, 'orders.countdown.left', { time: formatTimeLeft(left) }) : format(m, 'orders.countdown.over')}
    </p>
  );
}
