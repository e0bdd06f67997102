/** The labelled inputs of the island forms; each keeps what was typed before its island hydrated. */
import { useRef, useState, type ChangeEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { useValueTypedBeforeHydration } from './hydration.ts';
import './forms.css';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> {
  id: string;
  label: string;
  value: string | number;
  /** The new text, on every change (and once on mount when text was typed before hydration). */
  onValue: (value: string) => void;
  error?: string;
  hint?: string;
  /** A control beside the input, such as "Send code". */
  trailing?: ReactNode;
}

interface FrameProps {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  /** A class besides auth-field on the wrapper. */
  className?: string;
  children: ReactNode;
}

/** What a field has around its control: the label, then the hint and the error (`id-hint`, `id-error` for aria-describedby). */
export function FieldFrame({ id, label, hint, error, className, children }: FrameProps) {
  return (
    <div className={className ? `auth-field ${className}` : 'auth-field'}>
      <label htmlFor={id}>{label}</label>
      <div className="auth-control">{children}</div>
      {hint && (
        <p id={`${id}-hint`} className="auth-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="auth-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The props of a field's control: its id (also its name), its value and change, described by its hint
 * and error; it keeps what was typed or chosen before its island hydrated.
 */
export function useControl<Control extends HTMLInputElement | HTMLSelectElement>({
  id,
  value,
  onValue,
  hint,
  error,
}: {
  id: string;
  value: string | number;
  onValue: (value: string) => void;
  hint?: string;
  error?: string;
}) {
  const ref = useRef<Control>(null);
  useValueTypedBeforeHydration(ref, value, onValue);
  return {
    ref,
    id,
    name: id,
    value,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined,
    onChange: (event: ChangeEvent<Control>) => onValue(event.target.value),
  };
}

/** A labelled input with its hint and error, tied to it for screen readers. */
export function Field({ id, label, error, hint, trailing, value, onValue, ...input }: FieldProps) {
  const control = useControl<HTMLInputElement>({ id, value, onValue, hint, error });
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <input {...control} {...input} />
      {trailing}
    </FieldFrame>
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

/** The keys of a form's values that hold text. */
type TextKey<Values> = { [K in keyof Values]: Values[K] extends string ? K : never }[keyof Values] & string;

/**
 * What ties a field to one of a form's values: `bind(name)` gives the field's id (`prefix-name`),
 * value, error and change, to spread on a Field, PasswordField, SelectField or CaptchaField.
 */
export function bindFields<Values>(
  prefix: string,
  values: Values,
  errors: Partial<Record<string, string>>,
  change: (name: TextKey<Values>, value: string) => void,
) {
  return (name: TextKey<Values>) => ({
    id: `${prefix}-${name}`,
    value: values[name] as string,
    error: errors[name],
    onValue: (value: string) => change(name, value),
  });
}

type PartOfPhone = Pick<FieldProps, 'id' | 'label' | 'value' | 'onValue' | 'error' | 'placeholder' | 'hint'>;

/** A phone number as two fields side by side: the calling code ("+852") and the number. */
export function PhoneFields({ className, code, phone }: { className: string; code: PartOfPhone; phone: PartOfPhone }) {
  return (
    <div className={className}>
      <Field {...code} maxLength={5} inputMode="tel" autoComplete="tel-country-code" />
      <Field {...phone} maxLength={20} inputMode="tel" autoComplete="tel-national" />
    </div>
  );
}

/** A form's last lines: the error that belongs to no field (announced), then the submit button. */
export function SubmitRow({ error, busy, label }: { error?: string; busy: boolean; label: string }) {
  return (
    <>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="auth-submit" disabled={busy}>
        {label}
      </button>
    </>
  );
}
