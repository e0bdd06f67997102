/** An activity's poster: the chosen file is uploaded at once and the form keeps the path the upload answered. */
import { type ChangeEvent, useState } from 'react';
import { uploadImage } from '../../lib/browser/api-client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { FieldFrame } from '../shared/fields.tsx';
import { failureText } from '../shared/messages.ts';

interface Props {
  id: string;
  label: string;
  /** The stored path, '' for none. */
  value: string;
  error?: string;
  messages: Messages;
  onValue: (path: string) => void;
}

export function PosterField({ id, label, value, error, messages, onValue }: Props) {
  const [state, setState] = useState<{ busy: boolean; failure: string | null }>({ busy: false, failure: null });

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setState({ busy: true, failure: null });
    try {
      const image = await uploadImage(file, 'activity');
      onValue(image.path);
      setState({ busy: false, failure: null });
    } catch (cause) {
      setState({ busy: false, failure: `${format(messages, 'opsCatalogue.posterFailed')} ${failureText(cause, messages)}` });
    }
  }

  return (
    <FieldFrame
      id={id}
      label={label}
      error={error ?? state.failure ?? undefined}
      hint={state.busy ? format(messages, 'opsCatalogue.posterUploading') : undefined}
    >
      <input id={id} type="file" accept="image/jpeg,image/png,image/webp,image/avif" onChange={upload} disabled={state.busy} />
      {value !== '' && <img className="ops-poster-preview" src={value} alt="" width={120} height={160} />}
    </FieldFrame>
  );
}
