/**
 * What a failed "use my location" says (SPEC.md section 8): the failure's message, or, when the user
 * refused the location request, a prompt to allow it in the browser settings with a Setting button
 * that tries again. Shared by the header's city picker and the listing's "Near me".
 */
import type { GeolocationFailure } from '../../lib/domain/geo.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';

interface Props {
  failure: GeolocationFailure;
  /** Ids of the prompt's texts, unique on the page. */
  idPrefix: string;
  retrying: boolean;
  onRetry: () => void;
  onDismiss: () => void;
  messages: Messages;
}

export default function LocationFailure({ failure, idPrefix, retrying, onRetry, onDismiss, messages: m }: Props) {
  if (failure !== 'denied') {
    return (
      <p className="cp-error" role="alert">
        {format(m, `header.geo.${failure}`)}
      </p>
    );
  }
  return (
    <div className="cp-prompt" role="alertdialog" aria-labelledby={`${idPrefix}-denied`} aria-describedby={`${idPrefix}-denied-hint`}>
      <p id={`${idPrefix}-denied`}>
        <strong>{format(m, 'header.geo.denied')}</strong>
      </p>
      <p id={`${idPrefix}-denied-hint`}>{format(m, 'header.geo.prompt')}</p>
      <div className="cp-actions">
        <button type="button" onClick={onDismiss}>
          {format(m, 'header.geo.cancel')}
        </button>
        <button type="button" className="cp-primary" onClick={onRetry} disabled={retrying}>
          {format(m, 'header.geo.setting')}
        </button>
      </div>
    </div>
  );
}
