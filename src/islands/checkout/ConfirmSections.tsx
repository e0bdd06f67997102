/** The sections of the order confirmation form, each showing part of its state (useConfirmOrder). */
import { TAKER_NAME_MAX_LENGTH } from '../../lib/config/orders.ts';
import { pickerHref } from '../../lib/domain/confirm-query.ts';
import type { DeliveryType } from '../../lib/domain/delivery.ts';
import { attendeeSelectionStatus, type IdCardType } from '../../lib/domain/identity.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { Field, PhoneFields } from '../shared/fields.tsx';
import type { useConfirmOrder } from './useConfirmOrder.ts';

type ConfirmForm = ReturnType<typeof useConfirmOrder>;

interface DeliveryProps {
  form: ConfirmForm;
  messages: Messages;
  address: { id: number; name: string; phone: string; text: string } | null;
  deliveryHints: Record<DeliveryType, string>;
  addressList: string;
  disabled: boolean;
}

/** The delivery type, then what it needs: the shipping address (courier) or the taker's name and phone. */
export function DeliverySection({ form, messages: m, address, deliveryHints, addressList, disabled }: DeliveryProps) {
  const { quote, choice, errors, takerField } = form;
  const addressError = errors.addressId ?? (address ? undefined : format(m, 'error.delivery_address_required'));
  return (
    <fieldset className="confirm-section" disabled={disabled}>
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
              onChange={() => form.choose({ deliveryType: type })}
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
            href={pickerHref(addressList, form.here)}
            aria-describedby={addressError ? 'address-error' : undefined}
          >
            {format(m, address ? 'confirm.address.change' : 'confirm.address.choose')}
          </a>
        </div>
      )}

      {form.needsTaker && (
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
  );
}

/** The payment methods the quote offers. */
export function PaymentSection({ form, messages: m, disabled }: { form: ConfirmForm; messages: Messages; disabled: boolean }) {
  return (
    <fieldset className="confirm-section" disabled={disabled}>
      <legend>
        <h2>{format(m, 'confirm.payment.heading')}</h2>
      </legend>
      <div className="confirm-choices confirm-choices-grid" id="payment-choices" tabIndex={-1}>
        {form.quote.paymentMethods.map((method) => (
          <label key={method} className="confirm-choice">
            <input
              type="radio"
              name="paymentMethod"
              value={method}
              checked={method === form.paymentMethod}
              onChange={() => form.setPaymentMethod(method)}
            />
            <span className="confirm-choice-name">{format(m, `payment.${method}`)}</span>
          </label>
        ))}
      </div>
      {form.errors.paymentMethod && <p className="auth-error">{form.errors.paymentMethod}</p>}
    </fieldset>
  );
}

interface AttendeesProps {
  form: ConfirmForm;
  messages: Messages;
  /** How many attendees the buyer has saved. */
  saved: number;
  venueCountryName: string;
  customerList: string;
}

/** A real-name event's attendees: the ones chosen (with a document the venue does not accept marked), and the link to choose. */
export function AttendeesSection({ form, messages: m, saved, venueCountryName, customerList }: AttendeesProps) {
  const { quote, chosenAttendees, errors } = form;
  const need = quote.attendeesRequired;
  const status = attendeeSelectionStatus(saved, chosenAttendees.length, need);
  const typeName = (type: IdCardType) => format(m, `profile.attendee.type.${type}`);
  if (!status) return null;
  return (
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
      <p role="status">{format(m, `profile.attendee.${status.key}`, { count: status.count })}</p>
      {errors.attendeeIds && (
        <p id="attendees-error" className="auth-error">
          {errors.attendeeIds}
        </p>
      )}
      <a
        id="confirm-attendees"
        className="confirm-link"
        href={pickerHref(customerList, form.here, { need: String(need), venue: quote.activity.venueCountry })}
        aria-describedby={errors.attendeeIds ? 'attendees-error' : undefined}
      >
        {format(m, chosenAttendees.length > 0 ? 'confirm.attendees.change' : 'confirm.attendees.choose')}
      </a>
    </section>
  );
}

/** The buyer notes and the box that accepts them. */
export function NotesSection({
  form,
  messages: m,
  notes,
  disabled,
}: {
  form: ConfirmForm;
  messages: Messages;
  notes: string[];
  disabled: boolean;
}) {
  const error = form.errors.acceptNotes;
  return (
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
          checked={form.acceptNotes}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'accept-notes-error' : undefined}
          onChange={(event) => form.acceptNotesChanged(event.target.checked)}
        />
        <label htmlFor="accept-notes">{format(m, 'confirm.notes.accept')}</label>
        {error && (
          <p id="accept-notes-error" className="auth-error">
            {error}
          </p>
        )}
      </div>
    </section>
  );
}
