/** The spec's app-download modal: why the app helps with the lottery, a link to the app page, and "Not now". */
import { format, type Messages } from '../../lib/i18n/messages.ts';
import Modal from './Modal.tsx';

interface Props {
  open: boolean;
  onClose: () => void;
  appInfoUrl: string;
  messages: Messages;
}

export default function AppDownloadModal({ open, onClose, appInfoUrl, messages: m }: Props) {
  return (
    <Modal open={open} title={format(m, 'lottery.app.title')} onClose={onClose}>
      <p>{format(m, 'lottery.app.body')}</p>
      <div className="lottery-dialog-buttons">
        <button type="button" className="lottery-button" onClick={onClose}>
          {format(m, 'lottery.app.close')}
        </button>
        <a className="lottery-button lottery-button-primary" href={appInfoUrl}>
          {format(m, 'lottery.app.download')}
        </a>
      </div>
    </Modal>
  );
}
