/** A labelled select with a prompt option and its error, styled like the fields; keeps a choice made before hydration. */
import { useRef } from 'react';
import { useValueTypedBeforeHydration } from './hydration.ts';
import './forms.css';

interface Props {
  id: string;
  label: string;
  prompt: string;
  value: string;
  options: { code: string; name: string }[];
  error?: string;
  onChange: (value: string) => void;
}

export function SelectField({ id, label, prompt, value, options, error, onChange }: Props) {
  const control = useRef<HTMLSelectElement>(null);
  useValueTypedBeforeHydration(control, value, onChange);
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <div className="auth-control">
        <select
          ref={control}
          id={id}
          name={id}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{prompt}</option>
          {options.map((option) => (
            <option key={option.code} value={option.code}>
              {option.name}
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
