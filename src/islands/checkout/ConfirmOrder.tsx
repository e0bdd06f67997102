/**
 * The order confirmation form: delivery type and what it needs, payment method, coupon, real-name
 * attendees, buyer notes, the server's cost breakdown and Submit. It is rendered on the server with
 * the page's first quote; changing the delivery type or the coupon asks the server for a new quote.
 * Submit creates the order with one Idempotency-Key per visit of the page, so a double click or a
 * retry after a lost answer returns the same order instead of holding tickets twice.
 */
import type { DeliveryType } from '../../lib/domain/delivery.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import type { ConfirmPageData } from '../../lib/loaders/order-confirm.ts';
import { useHydrated } from '../shared/hydration.ts';
import { AttendeesSection, DeliverySection, NotesSection, PaymentSection } from './ConfirmSections.tsx';
import { CostBreakdown } from './CostBreakdown.tsx';
import { CouponPicker } from './CouponPicker.tsx';
import { useConfirmOrder } from './useConfirmOrder.ts';
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

export default function ConfirmOrder(props: Props) {
  const { locale, messages: m, address, attendees, venueCountryName, deliveryHints, notes, paths } = props;
  const hydrated = useHydrated();
  const form = useConfirmOrder(props, m, paths);
  const { quote, errors } = form;

  return (
    <form className="confirm-form" noValidate onSubmit={form.submit}>
      <DeliverySection
        form={form}
        messages={m}
        address={address}
        deliveryHints={deliveryHints}
        addressList={paths.addressList}
        disabled={!hydrated}
      />
      <PaymentSection form={form} messages={m} disabled={!hydrated} />
      <CouponPicker
        messages={m}
        locale={locale}
        coupons={quote.coupons}
        bestCouponId={quote.bestCouponId}
        chosen={form.choice.coupon}
        disabled={!hydrated}
        error={errors.coupon}
        onChoose={(coupon) => form.choose({ coupon })}
      />
      {attendees && (
        <AttendeesSection
          form={form}
          messages={m}
          saved={attendees.saved}
          venueCountryName={venueCountryName}
          customerList={paths.customerList}
        />
      )}
      <NotesSection form={form} messages={m} notes={notes} disabled={!hydrated} />
      <CostBreakdown messages={m} quote={quote} pricing={form.pricing} onRetry={form.retryQuote} />

      <div className="confirm-submit" data-bottom-bar="">
        <div role="alert" className="confirm-alert">
          {form.alert}
        </div>
        <p className="confirm-total">
          <span id="submit-total-label">{format(m, 'confirm.cost.total')}</span>{' '}
          <output aria-labelledby="submit-total-label">{quote.cost.formatted.total}</output>
        </p>
        <button type="submit" className="auth-submit" disabled={!hydrated || form.placing || form.pricing.state !== 'ready'}>
          {format(m, form.placing ? 'confirm.submitting' : 'confirm.submit')}
        </button>
      </div>
    </form>
  );
}
