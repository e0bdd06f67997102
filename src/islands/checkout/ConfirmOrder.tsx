/**
 * The order confirmation form: delivery type and what it needs, payment method, coupon, real-name
 * attendees, buyer notes, the server's cost breakdown and Submit. It is rendered on the server with
 * the page's first quote; changing the delivery type or the coupon asks the server for a new quote.
 * Submit creates the order with one Idempotency-Key per visit of the page, so a double click or a
 * retry after a lost answer returns the same order instead of holding tickets twice.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, callOptions, unwrap } from '../../lib/browser/api-client.ts';
import { TAKER_NAME_MAX_LENGTH } from '../../lib/config/orders.ts';
import { TAKER_DELIVERY_TYPES, type DeliveryType } from '../../lib/domain/delivery.ts';
import type { PaymentMethod } from '../../lib/domain/payment-methods.ts';
import { confirmSearch, payHref, pickerHref } from '../../lib/domain/confirm-query.ts';
import type { ErrorCode } from '../../lib/domain/errors.ts';
import { attendeeSelectionStatus, type IdCardType } from '../../lib/domain/identity.ts';
import { callingCodeProblem, phoneProblem } from '../../lib/domain/validation.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import type { ConfirmPageData } from '../../lib/loaders/order-confirm.ts';
import { $taker, loadTaker, updateTaker } from '../../lib/browser/checkout.ts';
import { bindFields, Field, PhoneFields } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { failureText as failureTextOf } from '../shared/messages.ts';
import { useMutation } from '../shared/mutation.ts';
import { CostBreakdown, type Pricing } from './CostBreakdown.tsx';
import { CouponPicker } from './CouponPicker.tsx';
import './checkout.css';

export interface ConfirmPaths {
  /** This page, locale prefix included; the pickers come back to it. */
  confirm: string;
  addressList: string;
  customerList: string;
  /** The pay page with ORDER_ID_SLOT for the new order's id. */
  pay: string;
}

/** The page's data (the first quote, the choices it priced, the picked address and attendees), plus how to show it. */
interface Props extends ConfirmPageData {
  locale: string;
  messages: Messages;
  venueCountryName: string;
  /** What each delivery type means for this show (venue, pickup time, office), rendered on the server. */
  deliveryHints: Record<DeliveryType, string>;
  notes: string[];
  paths: ConfirmPaths;
}

interface Choice {
  deliveryType: DeliveryType;
  coupon: 'none' | number;
}

/** The element each API field error belongs to, for focus. */
const FIELD_ELEMENTS: Record<string, string> = {
  deliveryType: 'delivery-choices',
  addressId: 'confirm-address',
  takerName: 'taker-name',
  takerPhoneCountryCode: 'taker-countryCode',
  takerPhone: 'taker-phone',
  paymentMethod: 'payment-choices',
  coupon: 'coupon-choices',
  attendeeIds: 'confirm-attendees',
  acceptNotes: 'accept-notes',
};

export default function ConfirmOrder(props: Props) {
  const { locale, messages: m, query, address, attendees, venueCountryName, deliveryHints, notes, paths } = props;
  const hydrated = useHydrated();
  const [quote, setQuote] = useState(props.quote);
  const [choice, setChoice] = useState<Choice>({ deliveryType: props.quote.deliveryType, coupon: props.quote.appliedCouponId ?? 'none' });
  const [paymentMethod, setPaymentMethod] = useState<PaymentMethod>(query.paymentMethod ?? props.quote.paymentMethods[0]);
  const taker = useStore($taker);
  const [acceptNotes, setAcceptNotes] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pricing, setPricing] = useState<Pricing>({ state: 'ready' });
  const [alert, setAlert] = useState('');
  const quoting = useRef<AbortController | null>(null);

  const need = quote.attendeesRequired;
  const chosenAttendees = attendees?.chosen ?? [];
  const needsTaker = TAKER_DELIVERY_TYPES.includes(choice.deliveryType);
  // The API names the taker's errors takerName, takerPhoneCountryCode and takerPhone.
  const takerErrors = { name: errors.takerName, countryCode: errors.takerPhoneCountryCode, phone: errors.takerPhone };
  const takerField = bindFields('taker', taker, takerErrors, updateTaker);
  // The URL holds every choice, so the pickers bring the buyer back to exactly this state.
  const here = `${paths.confirm}?${confirmSearch({ ...query, deliveryType: choice.deliveryType, coupon: choice.coupon, paymentMethod })}`;

  useEffect(loadTaker, []);
  useEffect(() => history.replaceState(history.state, '', here), [here]);

  const failureText = (error: unknown) => failureTextOf(error, m);

  async function requote(next: Choice) {
    quoting.current?.abort();
    const controller = new AbortController();
    quoting.current = controller;
    setPricing({ state: 'loading' });
    try {
      const query = {
        listingId: String(quote.listing.id),
        quantity: String(quote.quantity),
        deliveryType: next.deliveryType,
        coupon: String(next.coupon),
        ...(props.query.offer === undefined ? {} : { waitlistOfferId: String(props.query.offer) }),
      };
      const fresh = await unwrap(api.v1.checkout.quote.$get({ query }, callOptions({ signal: controller.signal })));
      setQuote(fresh);
      setChoice({ deliveryType: fresh.deliveryType, coupon: fresh.appliedCouponId ?? 'none' });
      setPricing({ state: 'ready' });
    } catch (error) {
      if (!controller.signal.aborted) setPricing({ state: 'failed', message: failureText(error) });
    }
  }

  function choose(next: Partial<Choice>) {
    const merged = { ...choice, ...next };
    setChoice(merged);
    setErrors({});
    setAlert('');
    void requote(merged);
  }

  /** The form's problems as the server would name them, with the same messages. */
  function problems(): Record<string, string> {
    const found: Record<string, string> = {};
    const say = (field: string, code: ErrorCode, params?: Record<string, string | number>) => {
      found[field] ??= format(m, `error.${code}`, params);
    };
    if (choice.deliveryType === 'courier' && !address) say('addressId', 'delivery_address_required');
    if (needsTaker) {
      if (taker.name.trim() === '') say('takerName', 'name_required');
      const codeIssue = callingCodeProblem(taker.countryCode.trim());
      if (codeIssue) say('takerPhoneCountryCode', codeIssue);
      const phoneIssue = phoneProblem(taker.phone);
      if (phoneIssue) say('takerPhone', phoneIssue);
    }
    if (need > 0) {
      const mismatch = chosenAttendees.find((attendee) => attendee.idCardType !== attendee.requiredType);
      if (chosenAttendees.length !== need) say('attendeeIds', 'attendees_required', { count: need });
      else if (mismatch) say('attendeeIds', 'attendee_id_type_mismatch', { name: mismatch.name });
    }
    if (!acceptNotes) say('acceptNotes', 'buyer_notes_not_accepted');
    return found;
  }

  function showProblems(found: Record<string, string>) {
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) document.getElementById(FIELD_ELEMENTS[first])?.focus();
  }

  function orderBody() {
    return {
      listingId: quote.listing.id,
      quantity: quote.quantity,
      deliveryType: choice.deliveryType,
      paymentMethod,
      coupon: quote.appliedCouponId ?? ('none' as const),
      ...(choice.deliveryType === 'courier' && address ? { addressId: address.id } : {}),
      ...(needsTaker
        ? { takerName: taker.name.trim(), takerPhoneCountryCode: taker.countryCode.trim(), takerPhone: taker.phone.trim() }
        : {}),
      ...(need > 0 ? { attendeeIds: chosenAttendees.map((attendee) => attendee.id) } : {}),
      acceptNotes,
      expectedTotal: quote.cost.total,
      ...(query.offer === undefined ? {} : { waitlistOfferId: query.offer }),
      ...(props.waitingRoomPass === null ? {} : { waitingRoomPass: props.waitingRoomPass }),
    };
  }

  // One Idempotency-Key per visit: a retry after a lost answer returns the order already made.
  const placing = useMutation<ReturnType<typeof orderBody>, { id: number }>({
    messages: m,
    call: (body, idempotencyKey) => unwrap(api.v1.orders.$post({ json: body }, callOptions({ idempotencyKey }))),
    // Stays "submitting" while the browser leaves for the pay page.
    busyAfterSuccess: true,
    onSuccess: (order) => window.location.assign(payHref(paths.pay, order.id)),
    onFailure: ({ text, field, status }) => {
      if (field && FIELD_ELEMENTS[field]) showProblems({ [field]: text });
      else setAlert(text);
      // Sold out, a new price or a coupon gone: show the figures as they are now.
      if (status === 409) void requote(choice);
    },
  });

  useEffect(() => {
    // Back from the pay page, the browser may restore this page as it was left: still submitting.
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) placing.release();
    };
    addEventListener('pageshow', restored);
    return () => removeEventListener('pageshow', restored);
  }, [placing.release]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (placing.busy || pricing.state !== 'ready') return;
    setAlert('');
    const found = problems();
    if (Object.keys(found).length > 0) return showProblems(found);
    setErrors({});
    void placing.run(orderBody());
  }

  const addressError = errors.addressId ?? (address ? undefined : format(m, 'error.delivery_address_required'));
  const attendeeStatus = attendees ? attendeeSelectionStatus(attendees.saved, chosenAttendees.length, need) : null;
  const typeName = (type: IdCardType) => format(m, `profile.attendee.type.${type}`);

  return (
    <form className="confirm-form" noValidate onSubmit={submit}>
      <fieldset className="confirm-section" disabled={!hydrated}>
        <legend>
          <h2>{format(m, 'confirm.delivery.heading')}</h2>
        </legend>
        <div className="confirm-choices confirm-choices-row" id="delivery-choices" tabIndex={-1}>
          {quote.listing.deliveryTypes.map((type) => (
            <label key={type} className="confirm-choice">
              <input
                type="radio"
                name="deliveryType"
                value={type}
                checked={type === choice.deliveryType}
                onChange={() => choose({ deliveryType: type })}
              />
              <span className="confirm-choice-name">{format(m, `detail.delivery.${type}`)}</span>
            </label>
          ))}
        </div>
        {errors.deliveryType && <p className="auth-error">{errors.deliveryType}</p>}
        <p className="confirm-hint">{deliveryHints[choice.deliveryType]}</p>

        {choice.deliveryType === 'courier' && (
          <div className="confirm-block">
            <h3>{format(m, 'confirm.address.heading')}</h3>
            {address && (
              <p className="confirm-address">
                <span className="confirm-choice-name">{address.name}</span> <span>{address.phone}</span>
                <br />
                {address.text}
              </p>
            )}
            {addressError && (
              <p id="address-error" className="auth-error" role="alert">
                {addressError}
              </p>
            )}
            <a
              id="confirm-address"
              className="confirm-link"
              href={pickerHref(paths.addressList, here)}
              aria-describedby={addressError ? 'address-error' : undefined}
            >
              {format(m, address ? 'confirm.address.change' : 'confirm.address.choose')}
            </a>
          </div>
        )}

        {needsTaker && (
          <div className="confirm-block">
            <h3>{format(m, 'confirm.taker.heading')}</h3>
            <Field
              {...takerField('name')}
              label={format(m, 'confirm.taker.name')}
              placeholder={format(m, 'confirm.taker.namePrompt')}
              maxLength={TAKER_NAME_MAX_LENGTH}
              autoComplete="name"
            />
            <PhoneFields
              className="confirm-phone"
              code={{ ...takerField('countryCode'), label: format(m, 'confirm.taker.countryCode') }}
              phone={{ ...takerField('phone'), label: format(m, 'confirm.taker.phone'), hint: format(m, 'confirm.taker.phonePrompt') }}
            />
          </div>
        )}
      </fieldset>

      <fieldset className="confirm-section" disabled={!hydrated}>
        <legend>
          <h2>{format(m, 'confirm.payment.heading')}</h2>
        </legend>
        <div className="confirm-choices confirm-choices-grid" id="payment-choices" tabIndex={-1}>
          {quote.paymentMethods.map((method) => (
            <label key={method} className="confirm-choice">
              <input
                type="radio"
                name="paymentMethod"
                value={method}
                checked={method === paymentMethod}
                onChange={() => setPaymentMethod(method)}
              />
              <span className="confirm-choice-name">{format(m, `payment.${method}`)}</span>
            </label>
          ))}
        </div>
        {errors.paymentMethod && <p className="auth-error">{errors.paymentMethod}</p>}
      </fieldset>

      <CouponPicker
        messages={m}
        locale={locale}
        coupons={quote.coupons}
        bestCouponId={quote.bestCouponId}
        chosen={choice.coupon}
        disabled={!hydrated}
        error={errors.coupon}
        onChoose={(coupon) => choose({ coupon })}
      />

      {attendees && attendeeStatus && (
        <section className="confirm-section" aria-labelledby="attendees-heading">
          <h2 id="attendees-heading">{format(m, 'confirm.attendees.heading')}</h2>
          <p>{format(m, 'profile.attendee.needed', { count: need })}</p>
          <p className="confirm-hint">{format(m, 'confirm.attendees.idRule', { country: venueCountryName })}</p>
          {chosenAttendees.length > 0 && (
            <ul className="confirm-attendees">
              {chosenAttendees.map((attendee) => (
                <li key={attendee.id}>
                  <span className="confirm-choice-name">{attendee.name}</span>
                  <span className="confirm-choice-detail">
                    {typeName(attendee.idCardType)} {attendee.idCardNo}
                  </span>
                  {attendee.idCardType !== attendee.requiredType && (
                    <span className="auth-error">
                      {format(m, 'confirm.attendees.wrongType', { name: attendee.name, type: typeName(attendee.requiredType) })}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
          <p role="status">{format(m, `profile.attendee.${attendeeStatus.key}`, { count: attendeeStatus.count })}</p>
          {errors.attendeeIds && (
            <p id="attendees-error" className="auth-error">
              {errors.attendeeIds}
            </p>
          )}
          <a
            id="confirm-attendees"
            className="confirm-link"
            href={pickerHref(paths.customerList, here, { need: String(need), venue: quote.activity.venueCountry })}
            aria-describedby={errors.attendeeIds ? 'attendees-error' : undefined}
          >
            {format(m, chosenAttendees.length > 0 ? 'confirm.attendees.change' : 'confirm.attendees.choose')}
          </a>
        </section>
      )}

      <section className="confirm-section" aria-labelledby="notes-heading">
        <h2 id="notes-heading">{format(m, 'confirm.notes.heading')}</h2>
        <ul className="confirm-notes">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
        <div className="auth-agreement">
          <input
            type="checkbox"
            id="accept-notes"
            checked={acceptNotes}
            disabled={!hydrated}
            aria-invalid={errors.acceptNotes ? true : undefined}
            aria-describedby={errors.acceptNotes ? 'accept-notes-error' : undefined}
            onChange={(event) => {
              setAcceptNotes(event.target.checked);
              setErrors(({ acceptNotes: _, ...rest }) => rest);
            }}
          />
          <label htmlFor="accept-notes">{format(m, 'confirm.notes.accept')}</label>
          {errors.acceptNotes && (
            <p id="accept-notes-error" className="auth-error">
              {errors.acceptNotes}
            </p>
          )}
        </div>
      </section>

      <CostBreakdown messages={m} quote={quote} pricing={pricing} onRetry={() => void requote(choice)} />

      <div className="confirm-submit" data-bottom-bar="">
        <div role="alert" className="confirm-alert">
          {alert}
        </div>
        <p className="confirm-total">
          <span id="submit-total-label">{format(m, 'confirm.cost.total')}</span>{' '}
          <output aria-labelledby="submit-total-label">{quote.cost.formatted.total}</output>
        </p>
        <button type="submit" className="auth-submit" disabled={!hydrated || placing.busy || pricing.state !== 'ready'}>
          {format(m, placing.busy ? 'confirm.submitting' : 'confirm.submit')}
        </button>
      </div>
    </form>
  );
}
