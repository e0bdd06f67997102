/**
 * The body of a header dialog. The page carries only this line of text and the few props below (the
 * dialog's texts among them): the lists the dialog offers (GET /api/v1/header/choices, which the browser may reuse for a while) load
 * when it hydrates, which (client:visible in a closed dialog) is when the dialog first opens. So every
 * page stays within a slow phone's first round trip, and no script is fetched before first paint.
 */
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import CityPicker from './CityPicker.tsx';
import PreferencesPopup from './PreferencesPopup.tsx';

const loadChoices = () => unwrap(api.v1.header.choices.$get());
type Choices = Awaited<ReturnType<typeof loadChoices>>;

interface Props {
  dialog: 'cityPicker' | 'preferences';
  /** The page's city (city picker), language, currency and path without its language prefix (preferences). */
  currentCityId: number;
  language: Locale;
  currency: string;
  path: string;
  messages: Messages;
}

export default function DialogLists({ dialog, currentCityId, language, currency, path, messages: m }: Props) {
  const [choices, setChoices] = useState<Choices | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (choices || failed) return;
    let current = true;
    loadChoices()
      .then((loaded) => current && setChoices(loaded))
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [choices, failed]);

  if (failed)
    return (
      <div className="dialog-failed" role="alert">
        <p>{format(m, 'error.network')}</p>
        <button type="button" className="dialog-retry" onClick={() => setFailed(false)}>
          {format(m, 'header.lists.retry')}
        </button>
      </div>
    );
  if (!choices) return <p className="dialog-loading">{format(m, 'header.lists.loading')}</p>;
  return dialog === 'cityPicker' ? (
    <CityPicker cities={choices.cities} hotCityIds={choices.hotCityIds} currentCityId={currentCityId} messages={m} />
  ) : (
    <PreferencesPopup
      languages={choices.languages}
      currencies={choices.currencies}
      language={language}
      currency={currency}
      path={path}
      messages={m}
    />
  );
}
