/**
 * "Sell / transfer": how many tickets, a price per ticket in a chosen currency (checked against the
 * band of face value the server enforces), what the buyer pays and what the seller receives as the
 * price is typed, the transfer agreement, and Publish. The server decides; its refusal is shown on
 * the field it names, and nothing typed is lost.
 */
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { TRANSFER_PLATFORM_FEE_BASIS_POINTS } from '../../lib/config/orders.ts';
import { formatMoney, parseMinorUnits } from '../../lib/domain/money.ts';
import { transferSplit } from '../../lib/domain/transfer.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { Field, SubmitRow } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { Toast, useToast } from '../shared/toast.tsx';
import type { TransferDraft } from '../../lib/services/marketplace/transfer-listings.ts';
import './transfer.css';

interface Props {
  orderId: number;
  listable: number;
  currencies: TransferDraft['currencies'];
  currency: string;
  locale: string;
  messages: Messages;
  agreementHref: string;
  /** Where to go once published ("My listings"). */
  doneHref: string;
}

type FieldName = 'quantity' | 'currency' | 'price' | 'acceptAgreement' | 'form';

export default function TransferForm({
  orderId,
  listable,
  currencies,
  currency: initialCurrency,
  locale,
  messages: m,
  agreementHref,
  doneHref,
}: Props) {
  const t = scoped(m, 'transfer.');
  const [quantity, setQuantity] = useState(1);
  const [currency, setCurrency] = useState(initialCurrency);
  const [priceText, setPriceText] = useState('');
  const [accepted, setAccepted] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [toast, showToast] = useToast();
  const hydrated = useHydrated();
  const publishing = useMutation({
    messages: m,
    call: (json: { quantity: number; price: number; currency: string; acceptAgreement: true }) => {
      const listing = { param: { id: String(orderId) }, json };
      return unwrap(api.v1.orders[':id']['transfer-listings'].$post(listing));
    },
    busyAfterSuccess: true,
    onSuccess: () => {
      showToast({ tone: 'success', title: t('sell.published') });
      location.assign(doneHref);
    },
    onFailure: ({ text, field }) => {
      setErrors({
        [field === 'quantity' || field === 'price' || field === 'currency' || field === 'acceptAgreement' ? field : 'form']: text,
      });
      showToast({ tone: 'error', title: t('sell.failed'), detail: text });
    },
  });

  const chosen = currencies.find((entry) => entry.code === currency) ?? currencies[0];
  const money = (amount: number) => formatMoney({ amount, currency: chosen.code }, locale, chosen.minorDigits);
  const price = parseMinorUnits(priceText, chosen.minorDigits);
  const bandText = t('sell.priceHint', { min: money(chosen.min), max: money(chosen.max), face: money(chosen.faceValue) });

  function priceProblem(): string | null {
    if (price === null) return t('sell.priceInvalid');
    if (price < chosen.min || price > chosen.max)
      return format(m, 'error.transfer_price_out_of_band', { min: money(chosen.min), max: money(chosen.max) });
    return null;
  }

  function publish(event: FormEvent) {
    event.preventDefault();
    const problems: Partial<Record<FieldName, string>> = {};
    const priceIssue = priceProblem();
    if (priceIssue) problems.price = priceIssue;
    if (!accepted) problems.acceptAgreement = format(m, 'error.transfer_agreement_required');
    setErrors(problems);
    if (priceIssue) return document.getElementById('transfer-price')?.focus();
    if (problems.acceptAgreement) return document.getElementById('transfer-accept')?.focus();
    if (price !== null) void publishing.run({ quantity, price, currency: chosen.code, acceptAgreement: true });
  }

  return (
    <form className="auth-form" method="post" noValidate onSubmit={publish}>
      <fieldset className="auth-fieldset" disabled={!hydrated}>
        <QuantitySelect
          label={t('sell.quantity')}
          hint={t('sell.quantityHint', { count: listable })}
          listable={listable}
          value={quantity}
          error={errors.quantity}
          onValue={(value) => {
            setQuantity(value);
            setErrors({});
          }}
        />
        <div className="transfer-price-row">
          <SelectField
            id="transfer-currency"
            className="transfer-currency"
            label={t('sell.currency')}
            value={chosen.code}
            options={currencies}
            onValue={(value) => {
              setCurrency(value);
              setErrors({});
            }}
          />
          <Field
            id="transfer-price"
            label={t('sell.price')}
            value={priceText}
            inputMode="decimal"
            autoComplete="off"
            maxLength={16}
            hint={bandText}
            error={errors.price}
            onValue={(value) => {
              setPriceText(value);
              setErrors({});
            }}
          />
        </div>
        <TransferSummary t={t} quantity={quantity} price={price} money={money} />
        <div className="auth-agreement">
          <input
            id="transfer-accept"
            type="checkbox"
            checked={accepted}
            aria-invalid={errors.acceptAgreement ? true : undefined}
            aria-describedby={errors.acceptAgreement ? 'transfer-accept-error' : undefined}
            onChange={(event) => {
              setAccepted(event.target.checked);
              setErrors({});
            }}
          />
          <label htmlFor="transfer-accept">{t('sell.accept')}</label>
          {errors.acceptAgreement && (
            <p id="transfer-accept-error" className="auth-error">
              {errors.acceptAgreement}
            </p>
          )}
        </div>
        <p className="transfer-agreement-link">
          <a href={agreementHref} target="_blank" rel="noopener">
            {t('sell.readAgreement')} {format(m, 'common.opensInNewTab')}
          </a>
        </p>
        <SubmitRow error={errors.form} busy={publishing.busy} label={t('sell.publish')} />
      </fieldset>
      <Toast toast={toast} />
    </form>
  );
}

interface QuantityProps {
  label: string;
  hint: string;
  /** How many tickets of the order may be listed. */
  listable: number;
  value: number;
  error?: string;
  onValue: (quantity: number) => void;
}

/** How many tickets to list, from one to all that may be. */
function QuantitySelect({ label, hint, listable, value, error, onValue }: QuantityProps) {
  const quantities = Array.from({ length: listable }, (_, index) => index + 1);
  return (
    <div className="auth-field">
      <label htmlFor="transfer-quantity">{label}</label>
      <div className="auth-control">
        <select
          id="transfer-quantity"
          value={value}
          aria-describedby="transfer-quantity-hint"
          aria-invalid={error ? true : undefined}
          onChange={(event) => onValue(Number(event.target.value))}
        >
          {quantities.map((count) => (
            <option key={count} value={count}>
              {count}
            </option>
          ))}
        </select>
      </div>
      <p id="transfer-quantity-hint" className="auth-hint">
        {hint}
      </p>
      {error && <p className="auth-error">{error}</p>}
    </div>
  );
}

interface SummaryProps {
  t: ReturnType<typeof scoped<'transfer.'>>;
  quantity: number;
  /** The price per ticket typed, in minor units; null while it is not a price. */
  price: number | null;
  money: (amount: number) => string;
}

/** What the buyer pays and the seller receives at the price typed, as it is typed. */
function TransferSummary({ t, quantity, price, money }: SummaryProps) {
  const split = price !== null && price > 0 ? transferSplit(price, quantity) : null;
  return (
    <section className="transfer-summary" aria-labelledby="transfer-summary-heading">
      <h2 id="transfer-summary-heading">{t('sell.summary')}</h2>
      <div aria-live="polite">
        {split && price !== null ? (
          <dl>
            <dt>{t('sell.ticketAmount', { count: quantity, price: money(price) })}</dt>
            <dd>{money(split.ticketAmount)}</dd>
            <dt>{t('sell.serviceFee')}</dt>
            <dd>{money(split.serviceFee)}</dd>
            <dt className="transfer-strong">{t('sell.buyerPays')}</dt>
            <dd className="transfer-strong">{money(split.buyerPays)}</dd>
            <dt>{t('sell.platformFee', { percent: TRANSFER_PLATFORM_FEE_BASIS_POINTS / 100 })}</dt>
            <dd>−{money(split.platformFee)}</dd>
            <dt className="transfer-strong">{t('sell.sellerReceives')}</dt>
            <dd className="transfer-strong">{money(split.sellerReceives)}</dd>
          </dl>
        ) : (
          <p className="auth-hint">{t('sell.enterPrice')}</p>
        )}
      </div>
    </section>
  );
}
