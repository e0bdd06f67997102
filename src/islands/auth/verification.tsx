/** What the account forms add to the shared fields: the graphic captcha and the countdown before another code. */
import { useEffect, useState } from 'react';
import { apiUrl } from '../../lib/browser/api-client.ts';
import { Field } from '../shared/fields.tsx';

interface CaptchaProps {
  id: string;
  value: string;
  onValue: (value: string) => void;
  /** Changes to show a new image (each image is a new challenge); null while no captcha is asked for. */
  nonce: number | null;
  onRefresh: () => void;
  /** The form's texts: the field's label, the refresh button's and the image's. */
  t: (key: 'captcha' | 'captchaRefresh' | 'captchaAlt') => string;
  error?: string;
}

/** The graphic captcha, once asked for: its answer field and the image, which is also the button that replaces it. */
export function CaptchaField({ nonce, onRefresh, t, ...field }: CaptchaProps) {
  if (nonce === null) return null;
  const src = apiUrl('v1/user/captcha', { timestamp: nonce });
  const image = (
    <button type="button" className="auth-captcha" onClick={onRefresh} title={t('captchaRefresh')} aria-label={t('captchaRefresh')}>
      <img src={`${src.pathname}${src.search}`} alt={t('captchaAlt')} width={120} height={40} />
    </button>
  );
  return (
    <Field
      {...field}
      label={t('captcha')}
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      maxLength={8}
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
