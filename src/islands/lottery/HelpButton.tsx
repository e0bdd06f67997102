/**
 * The share landing page's Help button (signed in, someone else's entry, not helped yet): gives the
 * sharer one more code, then the assist-success modal with their new count; closing it offers the
 * app-download modal. A refusal (helped already, the draw has passed, the entry is full) is shown as
 * the server words it.
 */
import { useState } from 'react';
import { api, ApiClientError, unwrap, type ApiData } from '../../lib/browser/api-client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { useMutation } from '../shared/mutation.ts';
import AppDownloadModal from './AppDownloadModal.tsx';
import Modal from './Modal.tsx';

type HelpResult = ApiData<(typeof api.v1.lotteries.share)[':token']['help']['$post']>;

interface Props {
  shareToken: string;
  appInfoUrl: string;
  messages: Messages;
}

type Step = 'idle' | 'helping' | 'thanked' | 'app' | 'done';

export default function HelpButton({ shareToken, appInfoUrl, messages: m }: Props) {
  const [step, setStep] = useState<Step>('idle');
  const [result, setResult] = useState<HelpResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const helping = useMutation({
    messages: m,
    call: () => unwrap(api.v1.lotteries.share[':token'].help.$post({ param: { token: shareToken } })),
    onSuccess: (helped) => {
      setResult(helped);
      setStep('thanked');
    },
    onFailure: ({ text, cause }) => {
      setStep('idle');
      setError(cause instanceof ApiClientError && cause.kind === 'http' ? text : format(m, 'lottery.failed'));
    },
  });

  function help() {
    setStep('helping');
    setError(null);
    void helping.run();
  }

  return (
    <div className="lottery-entry">
      {step === 'idle' || step === 'helping' ? (
        <button type="button" className="lottery-button lottery-button-primary" disabled={step === 'helping'} onClick={help}>
          {format(m, step === 'helping' ? 'lottery.helping' : 'lottery.help')}
        </button>
      ) : (
        <p role="status">{format(m, 'lottery.helped_this')}</p>
      )}
      {error && (
        <p role="alert" className="lottery-error">
          {error}
        </p>
      )}
      <Modal open={step === 'thanked'} title={format(m, 'lottery.assist.title')} onClose={() => setStep('app')}>
        {result && <p>{format(m, 'lottery.assist.body', { name: result.sharerName, count: result.sharerCodeCount })}</p>}
        <div className="lottery-dialog-buttons">
          <button type="button" className="lottery-button lottery-button-primary" onClick={() => setStep('app')}>
            {format(m, 'lottery.assist.close')}
          </button>
        </div>
      </Modal>
      <AppDownloadModal open={step === 'app'} onClose={() => setStep('done')} appInfoUrl={appInfoUrl} messages={m} />
    </div>
  );
}
