/** The small pieces the account forms share: a labelled field, the captcha, the countdown and a toast. */
import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { apiUrl } from '../../lib/api/client.ts';
import './toast.css';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  /** A control beside the input, such as "Send code". */
  trailing?: ReactNode;
}

/** A labelled input with its hint and error, tied to it for screen readers. */
export function Field({ id, label, error, hint, trailing, ...input }: FieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <div className="auth-control">
        <input id={id} name={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
        {trailing}
      </div>
      {hint && <p id={`${id}-hint`} className="auth-hint">{hint}</p>}
      {error && <p id={`${id}-error`} className="auth-error">{error}</p>}
    </div>
  );
}

interface PasswordFieldProps extends Omit<FieldProps, 'type' | 'trailing'> {
  showLabel: string;
}

/** A password input with a show/hide toggle (typing a password blind on a phone is error-prone). */
export function PasswordField({ showLabel, ...field }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const toggle = (
    <button type="button" className="auth-toggle" aria-pressed={visible} onClick={() => setVisible(!visible)}>
      {showLabel}
    </button>
  );
  return <Field {...field} type={visible ? 'text' : 'password'} trailing={toggle} />;
}

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
      onChange={(event) => onChange(event.target.value)}
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
  return [left, (seconds) => {
    const start = Date.now();
    setNow(start);
    setDeadline(start + seconds * 1000);
  }];
}

export interface ToastMessage {
  tone: 'error' | 'success';
  title: string;
  detail?: string;
}

const TOAST_MS = { success: 4000, error: 8000 } as const;

/** A toast that hides itself after a while. */
export function useToast(): [ToastMessage | null, (toast: ToastMessage | null) => void] {
  const [toast, setToast] = useState<ToastMessage | null>(null);
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), TOAST_MS[toast.tone]);
    return () => clearTimeout(timer);
  }, [toast]);
  return [toast, setToast];
}

/** Both live regions are always present, so screen readers announce what appears in them. */
export function Toast({ toast }: { toast: ToastMessage | null }) {
  const body = toast && (
    <div className={`auth-toast auth-toast-${toast.tone}`}>
      <strong>{toast.title}</strong>
      {toast.detail && toast.detail !== toast.title && <span>{toast.detail}</span>}
    </div>
  );
  return (
    <>
      <div role="alert" className="auth-toast-region">{toast?.tone === 'error' && body}</div>
      <div role="status" className="auth-toast-region">{toast?.tone === 'success' && body}</div>
    </>
  );
}

/**
 * False in the server-rendered markup, true once React runs. Forms stay disabled until then, so
 * nothing typed before hydration is lost when React takes the fields over.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
