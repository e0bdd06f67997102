/**
 * The banner form's image: a chosen file is uploaded to the console's image service at once
 * (POST v1/operator/images, multipart fields `file` and `kind` = banner) and the path it answers is
 * written into the form's image path field, which the form then saves; without a new file the
 * field keeps the path the banner has.
 */
import { useState } from 'react';
import { type UploadedImage, uploadImage } from '../../lib/browser/api-client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { useMutation } from '../shared/mutation.ts';

interface Props {
  messages: Messages;
  /** The id of the form's image path input. */
  pathInputId: string;
}

export default function BannerImageUpload({ messages, pathInputId }: Props) {
  const [status, setStatus] = useState<{ text: string; failed: boolean } | null>(null);
  const upload = useMutation<File, UploadedImage>({
    messages,
    call: (file, idempotencyKey) => uploadImage(file, 'banner', idempotencyKey),
    onSuccess: (image) => {
      const input = document.getElementById(pathInputId);
      if (input instanceof HTMLInputElement) input.value = image.path;
      setStatus({ text: format(messages, 'storefront.upload.done', { width: image.width, height: image.height }), failed: false });
    },
    onFailure: (failure) => setStatus({ text: failure.text, failed: true }),
  });
  return (
    <div className="banner-upload">
      <label htmlFor={`${pathInputId}-file`}>{format(messages, 'storefront.field.upload')}</label>
      <input
        id={`${pathInputId}-file`}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/avif"
        disabled={upload.busy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void upload.run(file);
        }}
      />
      <p role="status" className={status?.failed ? 'upload-failed' : undefined}>
        {upload.busy ? format(messages, 'storefront.upload.busy') : (status?.text ?? '')}
      </p>
    </div>
  );
}
