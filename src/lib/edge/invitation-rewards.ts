/** What one invitation coupon gives, as the invitation page and the invitation's share card say it. */
import type { Translate } from '../i18n/index.ts';
import { couponAmountText } from '../services/orders/coupons.ts';
import type { InvitationReward } from '../services/accounts/invitations.ts';

export function invitationRewardText(t: Translate, reward: InvitationReward): string {
  const offer = reward.amount
    ? t('coupons.amountOff', { amount: couponAmountText(reward.amount, reward.amountInUserCurrency, t) })
    : t('coupons.rate', { fold: reward.fold ?? '', percent: reward.percentOff ?? 0 });
  return reward.minSpend
    ? `${offer}, ${t('coupons.minSpend', { amount: couponAmountText(reward.minSpend, reward.minSpendInUserCurrency, t) })}`
    : offer;
}
