/**
 * The order confirmation form's state and actions: the choices (delivery type, coupon, payment
 * method), the taker, the notes' acceptance, a new quote from the server when a priced choice
 * changes, the form's problems as the server would name them, and placing the order with one
 * Idempotency-Key per visit of the page, so a double click or a retry after a lost answer returns
 * the same order instead of holding tickets twice.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, callOptions, unwrap } from '../../lib/browser/api-client.ts';
import { $taker, loadTaker, updateTaker, type Taker } from '../../lib/browser/checkout.ts';
import { confirmSearch, payHref } from '../../lib/domain/confirm-query.ts';
import { TAKER_DELIVERY_TYPES, type DeliveryType } from '../../lib/domain/delivery.ts';
import type { ErrorCode } from '../../lib/domain/errors.ts';
import type { PaymentMethod } from '../../lib/domain/payment-methods.ts';
import { callingCodeProblem, phoneProblem } from '../../lib/domain/validation.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import type { ConfirmPageData } from '../../lib/loaders/order-confirm.ts';
import { bindFields } from '../shared/fields.tsx';
import { failureText } from '../shared/messages.ts';
import { useMutation } from '../shared/mutation.ts';
import type { Pricing } from './CostBreakdown.tsx';

export interface Choice {
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

interface Filled {
  deliveryType: DeliveryType;
  hasAddress: boolean;
  /** The taker, when the delivery type needs one. */
  taker: Taker | null;
  need: number;
  chosenAttendees: { name: string; idCardType: string; requiredType: string }[];
  acceptNotes: boolean;
}

/** The form's problems as the server would name them, with the same messages. */
function problemsOf(filled: Filled, m: Messages): Record<string, string> {
  const { taker, need, chosenAttendees } = filled;
  const found: Record<string, string> = {};
  const say = (field: string, code: ErrorCode, params?: Record<string, string | number>) => {
    found[field] ??= format(m, `error.${code}`, params);
  };
  if (filled.deliveryType === 'courier' && !filled.hasAddress) say('addressId', 'delivery_address_required');
  if (taker) {
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
  if (!filled.acceptNotes) say('acceptNotes', 'buyer_notes_not_accepted');
  return found;
}

export function useConfirmOrder(page: ConfirmPageData, messages: Messages, paths: { confirm: string; pay: string }) {
  const m = messages;
  const { query, address, attendees } = page;
  const [quote, setQuote] = useState(page.quote);
  const [choice, setChoice] = useState<Choice>({ deliveryType: page.quote.deliveryType, coupon: page.quote.appliedCouponId ?? 'none' });
  const [paymentMethod, setPaymentMethod] = useState<PaymentMethod>(query.paymentMethod ?? page.quote.paymentMethods[0]);
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
  // The URL holds every choice, so the pickers bring the buyer back to exactly this state.
  const here = `${paths.confirm}?${confirmSearch({ ...query, deliveryType: choice.deliveryType, coupon: choice.coupon, paymentMethod })}`;

  useEffect(loadTaker, []);
  useEffect(() => history.replaceState(history.state, '', here), [here]);

  async function requote(next: Choice) {
    quoting.current?.abort();
    const controller = new AbortController();
    quoting.current = controller;
    setPricing({ state: 'loading' });
    try {
      const asked = {
        listingId: String(quote.listing.id),
        quantity: String(quote.quantity),
        deliveryType: next.deliveryType,
        coupon: String(next.coupon),
        ...(query.offer === undefined ? {} : { waitlistOfferId: String(query.offer) }),
      };
      const fresh = await unwrap(api.v1.checkout.quote.$get({ query: asked }, callOptions({ signal: controller.signal })));
      setQuote(fresh);
      setChoice({ deliveryType: fresh.deliveryType, coupon: fresh.appliedCouponId ?? 'none' });
      setPricing({ state: 'ready' });
    } catch (error) {
      if (!controller.signal.aborted) setPricing({ state: 'failed', message: failureText(error, m) });
    }
  }

  function choose(next: Partial<Choice>) {
    const merged = { ...choice, ...next };
    setChoice(merged);
    setErrors({});
    setAlert('');
    void requote(merged);
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
      ...(page.waitingRoomPass === null ? {} : { waitingRoomPass: page.waitingRoomPass }),
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
    const filled = { deliveryType: choice.deliveryType, hasAddress: address !== null, taker: needsTaker ? taker : null, need };
    const found = problemsOf({ ...filled, chosenAttendees, acceptNotes }, m);
    if (Object.keys(found).length > 0) return showProblems(found);
    setErrors({});
    void placing.run(orderBody());
  }

  return {
    quote,
    choice,
    choose,
    paymentMethod,
    setPaymentMethod,
    needsTaker,
    takerField: bindFields('taker', taker, takerErrors, updateTaker),
    chosenAttendees,
    acceptNotes,
    acceptNotesChanged: (accepted: boolean) => {
      setAcceptNotes(accepted);
      setErrors(({ acceptNotes: _, ...rest }) => rest);
    },
    errors,
    pricing,
    retryQuote: () => void requote(choice),
    alert,
    here,
    placing: placing.busy,
    submit,
  };
}
