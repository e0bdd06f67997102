/**
 * The signed-in participant's part of a lottery: Join (one draw code), then the codes, the share
 * link (copy or the system share sheet) and the share image. Joining opens the app-download modal.
 * The page renders the signed-out and drawn states without script.
 */
import { useEffect, useState } from 'react';
import { api, ApiClientError, unwrap } from '../../lib/browser/api-client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import type { MyEntry } from '../../lib/services/on-sale/lottery-views.ts';
import { useMutation } from '../shared/mutation.ts';
import AppDownloadModal from './AppDownloadModal.tsx';

interface Props {
  lotteryId: number;
  maxCodesPerEntry: number;
  open: boolean;
  initialEntry: MyEntry | null;
  /** The page's locale prefix, for the share link (`/zh-HK`). */
  localePrefix: string;
  appInfoUrl: string;
  messages: Messages;
}

export default function LotteryEntry({ lotteryId, maxCodesPerEntry, open, initialEntry, localePrefix, appInfoUrl, messages: m }: Props) {
  const [entry, setEntry] = useState<MyEntry | null>(initialEntry);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [appPrompt, setAppPrompt] = useState(false);
  // The origin and the share sheet exist only in the browser; the server renders the relative link.
  const [origin, setOrigin] = useState('');
  const [canShare, setCanShare] = useState(false);
  useEffect(() => {
    setOrigin(window.location.origin);
    setCanShare(typeof navigator.share === 'function');
  }, []);

  const joining = useMutation({
    messages: m,
    call: () => unwrap(api.v1.lotteries[':id'].join.$post({ param: { id: String(lotteryId) } })),
    onSuccess: (detail) => {
      setEntry(detail.myEntry);
      setAppPrompt(true);
    },
    onFailure: ({ text, cause }) => setError(cause instanceof ApiClientError && cause.kind === 'http' ? text : format(m, 'lottery.failed')),
  });
  const busy = joining.busy;

  function join() {
    setError(null);
    void joining.run();
  }

  if (!entry) {
    if (!open) return null;
    return (
      <div className="lottery-entry">
        <button type="button" className="lottery-button lottery-button-primary" disabled={busy} onClick={join}>
          {format(m, busy ? 'lottery.joining' : 'lottery.join')}
        </button>
        {error && (
          <p role="alert" className="lottery-error">
            {error}
          </p>
        )}
      </div>
    );
  }

  const shareUrl = `${origin}${localePrefix}${entry.sharePath}`;
  const imageUrl = `/api/v1/lotteries/share/${encodeURIComponent(entry.shareToken)}/image.svg`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(shareUrl);
      setNotice(format(m, 'lottery.share.copied'));
    } catch {
      setNotice(shareUrl);
    }
  }

  async function shareNatively() {
    try {
      await navigator.share({ title: format(m, 'lottery.title'), url: shareUrl });
    } catch {
      // The user closed the share sheet: nothing to say.
    }
  }

  return (
    <div className="lottery-entry">
      <h2>{format(m, 'lottery.my_codes', { count: entry.codes.length, max: maxCodesPerEntry })}</h2>
      <ul className="lottery-codes">
        {entry.codes.map((code) => (
          <li key={code.code}>
            <code>{code.code}</code>
            {code.fromFriend && <span className="lottery-tag">{format(m, 'lottery.code_from_friend')}</span>}
            {code.isWinner && <span className="lottery-tag lottery-tag-win">{format(m, 'lottery.code_winner')}</span>}
          </li>
        ))}
      </ul>
      {open && (
        <section className="lottery-share" aria-labelledby="lottery-share-heading">
          <h2 id="lottery-share-heading">{format(m, 'lottery.share.heading')}</h2>
          {entry.codes.length >= maxCodesPerEntry && <p>{format(m, 'lottery.share.full')}</p>}
          <label htmlFor="lottery-share-link">{format(m, 'lottery.share.link_label')}</label>
          <input id="lottery-share-link" readOnly value={shareUrl} onFocus={(event) => event.currentTarget.select()} />
          <div className="lottery-actions">
            <button type="button" className="lottery-button" onClick={copy}>
              {format(m, 'lottery.share.copy')}
            </button>
            {canShare && (
              <button type="button" className="lottery-button" onClick={shareNatively}>
                {format(m, 'lottery.share.native')}
              </button>
            )}
            <a className="lottery-button" href={imageUrl} target="_blank" rel="noopener">
              {format(m, 'lottery.share.image')}
            </a>
          </div>
          <p className="lottery-hint">{format(m, 'lottery.share.image_steps')}</p>
          {notice && <p role="status">{notice}</p>}
        </section>
      )}
      <AppDownloadModal open={appPrompt} onClose={() => setAppPrompt(false)} appInfoUrl={appInfoUrl} messages={m} />
    </div>
  );
}
