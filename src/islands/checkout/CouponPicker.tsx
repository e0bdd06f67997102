/**
 * The coupon pick list (SPEC.md section 2): no coupon, the usable ones with what each saves and the
 * best offer marked, then those that cannot be used with the reason. The server judges every coupon.
 */
import type { CouponOption } from '../../lib/services/orders/presenters.ts';
import { formatCouponDate } from '../../lib/domain/confirm-query.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';

interface Props {
  messages: Messages;
  locale: string;
  coupons: CouponOption[];
  bestCouponId: number | null;
  chosen: 'none' | number;
  disabled: boolean;
  error?: string;
  onChoose: (coupon: 'none' | number) => void;
}

type RefusedCoupon = CouponOption & { reason: NonNullable<CouponOption['reason']> };

function reasonOf(coupon: RefusedCoupon, m: Messages, locale: string): string {
  return format(m, `confirm.coupon.reason.${coupon.reason}`, {
    date: formatCouponDate(coupon.reason === 'not_started' ? coupon.validFrom : coupon.validTo, locale),
    amount: coupon.minSpend?.formatted ?? '',
  });
}

export function CouponPicker({ messages: m, locale, coupons, bestCouponId, chosen, disabled, error, onChoose }: Props) {
  const usable = coupons.filter((coupon) => coupon.usable);
  const unusable = coupons.filter((coupon): coupon is RefusedCoupon => coupon.reason !== null);
  return (
    <fieldset className="confirm-section" disabled={disabled} aria-describedby={error ? 'coupon-error' : undefined}>
      <legend>
        <h2>{format(m, 'confirm.coupon.heading')}</h2>
      </legend>
      <div className="confirm-choices" id="coupon-choices" tabIndex={-1}>
        <label className="confirm-choice">
          <input type="radio" name="coupon" value="none" checked={chosen === 'none'} onChange={() => onChoose('none')} />
          <span className="confirm-choice-name">{format(m, 'confirm.coupon.none')}</span>
        </label>
        {usable.map((coupon) => (
          <label key={coupon.userCouponId} className="confirm-choice">
            <input
              type="radio"
              name="coupon"
              value={coupon.userCouponId}
              checked={chosen === coupon.userCouponId}
              onChange={() => onChoose(coupon.userCouponId)}
            />
            <span className="confirm-choice-name">
              {coupon.name}
              {coupon.userCouponId === bestCouponId && <span className="confirm-badge">{format(m, 'confirm.coupon.best')}</span>}
            </span>
            <span className="confirm-choice-detail">
              {format(m, 'confirm.coupon.discount', { amount: coupon.discount?.formatted ?? '' })}
              {' · '}
              {format(m, 'confirm.coupon.validTo', { date: formatCouponDate(coupon.validTo, locale) })}
            </span>
          </label>
        ))}
      </div>
      {coupons.length === 0 && <p className="confirm-hint">{format(m, 'confirm.coupon.empty')}</p>}
      {error && (
        <p id="coupon-error" className="auth-error">
          {error}
        </p>
      )}
      {unusable.length > 0 && (
        <>
          <h3>{format(m, 'confirm.coupon.unusable', { count: unusable.length })}</h3>
          <ul className="confirm-unusable">
            {unusable.map((coupon) => (
              <li key={coupon.userCouponId}>
                <span className="confirm-choice-name">{coupon.name}</span>
                <span className="confirm-choice-detail">{reasonOf(coupon, m, locale)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </fieldset>
  );
}
