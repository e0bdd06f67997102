/** What the account forms add to the shared fields: the graphic captcha and the countdown before another code. */
import { useEffect, useState } from 'react';
import { apiUrl } from '../../lib/api/client.ts';
import { Field } from '../shared/fields.tsx';

interface CaptchaProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** Changes to show a new image (each image is a new challenge). */
  nonce: number;
  onRefresh: () => void;
  label: string;
  refreshLabel: string;
  imageAlt: string;
  error?: string;
}

/** The graphic captcha: its answer field and the image, which is also the button that replaces it. */
export function CaptchaField({ id, value, onChange, nonce, onRefresh, label, refreshLabel, imageAlt, error }: CaptchaProps) {
  const src = apiUrl('v1/user/captcha', { timestamp: nonce });
  const image = (
    <button type="button" className="auth-captcha" onClick={onRefresh} title={refreshLabel} aria-label={refreshLabel}>
      <img src={`${src.pathname}${src.search}`} alt={imageAlt} width={120} height={40} />
    </button>
  );
  return (
    <Field
      id={id}
      label={label}
      value={value}
      onValue={onChange}
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      maxLength={8}
      error={error}
      trailing={image}
    />
  );
}

/** Seconds left before another code may be asked for, and the function that starts the wait. */
export function useCountdown(): [number, (seconds: number) => void] {
  const [deadline, setDeadline] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline <= now) return;
    // Wake at the next whole second left, so the number shown never lags.
    const timer = setTimeout(() => setNow(Date.now()), (deadline - now) % 1000 || 1000);
    return () => clearTimeout(timer);
  }, [deadline, now]);
  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  return [
    left,
    (seconds) => {
      const start = Date.now();
      setNow(start);
      setDeadline(start + seconds * 1000);
    },
  ];
}
