/** A labelled select with its options and error, styled like the fields; keeps a choice made before hydration. */
import { useRef } from 'react';
import { useValueTypedBeforeHydration } from './hydration.ts';
import './forms.css';

interface Props {
  id: string;
  label: string;
  /** The first, empty option ("Choose…"); none when a choice is always made. */
  prompt?: string;
  value: string;
  /** Each option's value and text (the value itself where it has no name, as a currency code). */
  options: { code: string; name?: string }[];
  error?: string;
  onValue: (value: string) => void;
  /** A class besides auth-field on the wrapper. */
  className?: string;
}

export function SelectField({ id, label, prompt, value, options, error, onValue, className }: Props) {
  const control = useRef<HTMLSelectElement>(null);
  useValueTypedBeforeHydration(control, value, onValue);
  return (
    <div className={className ? `auth-field ${className}` : 'auth-field'}>
      <label htmlFor={id}>{label}</label>
      <div className="auth-control">
        <select
          ref={control}
          id={id}
          name={id}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onValue(event.target.value)}
        >
          {prompt !== undefined && <option value="">{prompt}</option>}
          {options.map((option) => (
            <option key={option.code} value={option.code}>
              {option.name ?? option.code}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p id={`${id}-error`} className="auth-error">
          {error}
        </p>
      )}
    </div>
  );
}
