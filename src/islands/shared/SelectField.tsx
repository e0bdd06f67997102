/** A labelled select with its options and error, styled like the fields; keeps a choice made before hydration. */
import { FieldFrame, useControl } from './fields.tsx';

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
  const control = useControl<HTMLSelectElement>({ id, value, onValue, error });
  return (
    <FieldFrame id={id} label={label} error={error} className={className}>
      <select {...control}>
        {prompt !== undefined && <option value="">{prompt}</option>}
        {options.map((option) => (
          <option key={option.code} value={option.code}>
            {option.name ?? option.code}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
