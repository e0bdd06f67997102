/**
 * The cost breakdown the server computed (SPEC.md section 3): the tickets at their all-in price (the
 * service fee shown as included in them, as every price before was), postage including the fuel
 * surcharge, coupon and total. While a new quote is on its way the old figures
 * stay, marked busy; a failed quote says why and offers to try again.
 */
import type { CheckoutQuote } from '../../lib/services/orders/presenters.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';

export type Pricing = { state: 'ready' } | { state: 'loading' } | { state: 'failed'; message: string };

interface Props {
  messages: Messages;
  quote: CheckoutQuote;
  pricing: Pricing;
  onRetry: () => void;
}

export function CostBreakdown({ messages: m, quote, pricing, onRetry }: Props) {
  const { cost } = quote;
  return (
    <section className="confirm-section" aria-labelledby="cost-heading" aria-busy={pricing.state === 'loading'}>
      <h2 id="cost-heading">{format(m, 'confirm.cost.heading')}</h2>
      <dl className="confirm-cost">
        <div>
          <dt>{format(m, 'confirm.cost.ticketAmount')}</dt>
          <dd>
            {cost.formatted.allInTickets}
            <span className="confirm-cost-detail">
              {format(m, 'confirm.cost.ticketDetail', { price: quote.allInUnitPrice.formatted, count: quote.quantity })}
            </span>
          </dd>
        </div>
        <div>
          <dt>{format(m, 'confirm.cost.serviceFee')}</dt>
          <dd>{format(m, 'confirm.cost.serviceFeeIncluded', { amount: cost.formatted.serviceFee })}</dd>
        </div>
        <div>
          <dt>{format(m, 'confirm.cost.postage')}</dt>
          <dd>
            {cost.formatted.postage}
            {cost.fuelSurcharge > 0 && (
              <span className="confirm-cost-detail">
                {format(m, 'confirm.cost.fuelSurcharge', { amount: cost.formatted.fuelSurcharge })}
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>{format(m, 'confirm.cost.coupon')}</dt>
          <dd>
            {cost.couponDiscount > 0
              ? format(m, 'confirm.cost.couponAmount', { amount: cost.formatted.couponDiscount })
              : cost.formatted.couponDiscount}
          </dd>
        </div>
        <div className="confirm-cost-total">
          <dt>{format(m, 'confirm.cost.total')}</dt>
          <dd>{cost.formatted.total}</dd>
        </div>
      </dl>
      <div role="status" className="confirm-hint">
        {pricing.state === 'loading' ? format(m, 'confirm.cost.updating') : ''}
      </div>
      {pricing.state === 'failed' && (
        <div role="alert" className="confirm-failure">
          <p>{pricing.message}</p>
          <button type="button" className="confirm-link" onClick={onRetry}>
            {format(m, 'confirm.cost.retry')}
          </button>
        </div>
      )}
    </section>
  );
}
