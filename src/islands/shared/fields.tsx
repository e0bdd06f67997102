/** The labelled inputs of the island forms; each keeps what was typed before its island hydrated. */
import { useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
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

/** A labelled input with its hint and error, tied to it for screen readers. */
export function Field({ id, label, error, hint, trailing, value, onValue, ...input }: FieldProps) {
  const control = useRef<HTMLInputElement>(null);
  useValueTypedBeforeHydration(control, value, onValue);
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <div className="auth-control">
        <input
          ref={control}
          id={id}
          name={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          value={value}
          onChange={(event) => onValue(event.target.value)}
          {...input}
        />
        {trailing}
      </div>
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
