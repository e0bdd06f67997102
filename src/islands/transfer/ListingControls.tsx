/**
 * The controls of one of the seller's active transfer listings: Change price (a small form that
 * opens in place) and Withdraw (asks first). Each change goes to the server, which checks the band
 * and the listing's state again; on success the page reloads to show the listing as it now is, and
 * a refusal is shown beside the control with nothing typed lost.
 */
import { useRef, useState, type FormEvent } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { parseMinorUnits } from '../../lib/domain/money.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { Field } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { Toast, useToast } from '../shared/toast.tsx';
import '../orders/orders.css';
import './transfer.css';

interface Props {
  listingId: number;
  /** The show the listing is for, naming the controls for screen readers. */
  name: string;
  /** The listing's price now, in its currency, and every currency a price may be set in. */
  price: { amount: number; currency: string };
  currencies: Array<{ code: string; minorDigits: number }>;
  withdrawable: boolean;
  messages: Messages;
}

export default function ListingControls({ listingId, name, price, currencies, withdrawable, messages: m }: Props) {
  const t = scoped(m, 'transfer.mine.');
  const digitsOf = (code: string) => currencies.find((entry) => entry.code === code)?.minorDigits ?? 2;
  const dialog = useRef<HTMLDialogElement>(null);
  const [editing, setEditing] = useState(false);
  const [currency, setCurrency] = useState(price.currency);
  const [priceText, setPriceText] = useState(() => (price.amount / 10 ** digitsOf(price.currency)).toFixed(digitsOf(price.currency)));
  const [error, setError] = useState('');
  const [toast, showToast] = useToast();
  const hydrated = useHydrated();
  const id = `listing-${listingId}`;

  /** A new price, or null to withdraw the listing. */
  const change = useMutation({
    messages: m,
    call: (newPrice: { price: number; currency: string } | null) => {
      const param = { id: String(listingId) };
      if (!newPrice) return unwrap(api.v1['transfer-listings'][':id'].$delete({ param }));
      const repricing = { param, json: newPrice };
      return unwrap(api.v1['transfer-listings'][':id'].$put(repricing));
    },
    busyAfterSuccess: true,
    onSuccess: () => location.reload(),
    onFailure: ({ text }) => {
      dialog.current?.close();
      setError(text);
      showToast({ tone: 'error', title: t('failed'), detail: text });
    },
  });
  const busy = change.busy;

  function savePrice(event: FormEvent) {
    event.preventDefault();
    const amount = parseMinorUnits(priceText, digitsOf(currency));
    if (amount === null) {
      setError(format(m, 'transfer.sell.priceInvalid'));
      return document.getElementById(`${id}-price`)?.focus();
    }
    void change.run({ price: amount, currency });
  }

  return (
    <>
      {!editing && (
        <div className="transfer-actions">
          {withdrawable && (
            <button
              type="button"
              className="orders-button"
              disabled={!hydrated || busy}
              aria-label={t('withdrawNamed', { name })}
              onClick={() => dialog.current?.showModal()}
            >
              {t('withdraw')}
            </button>
          )}
          <button
            type="button"
            className="orders-button orders-button-primary"
            disabled={!hydrated}
            aria-label={t('changePriceNamed', { name })}
            onClick={() => setEditing(true)}
          >
            {t('changePrice')}
          </button>
        </div>
      )}
      {editing && (
        <form className="transfer-reprice" noValidate onSubmit={savePrice}>
          <div className="transfer-price-row">
            <SelectField
              id={`${id}-currency`}
              label={format(m, 'transfer.sell.currency')}
              value={currency}
              options={currencies}
              onValue={(value) => {
                setCurrency(value);
                setError('');
              }}
            />
            <Field
              id={`${id}-price`}
              label={t('newPrice')}
              value={priceText}
              inputMode="decimal"
              autoComplete="off"
              maxLength={16}
              autoFocus
              error={error || undefined}
              onValue={(value) => {
                setPriceText(value);
                setError('');
              }}
            />
          </div>
          <div className="transfer-reprice-buttons">
            <button
              type="button"
              className="orders-button"
              disabled={busy}
              onClick={() => {
                setEditing(false);
                setError('');
              }}
            >
              {t('cancel')}
            </button>
            <button type="submit" className="orders-button orders-button-primary" disabled={busy}>
              {t('save')}
            </button>
          </div>
        </form>
      )}
      {!editing && error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      <dialog ref={dialog} className="orders-dialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-prompt`}>
        <h2 id={`${id}-title`}>{t('withdrawTitle')}</h2>
        <p id={`${id}-prompt`}>{t('withdrawPrompt')}</p>
        <div className="orders-dialog-buttons">
          <button type="button" className="orders-button" disabled={busy} onClick={() => dialog.current?.close()}>
            {t('keep')}
          </button>
          <button type="button" className="orders-button orders-button-primary" disabled={busy} onClick={() => void change.run(null)}>
            {t('withdraw')}
          </button>
        </div>
      </dialog>
      <Toast toast={toast} />
    </>
  );
}
