/**
 * Message keys typed from the English catalogue, the one every other catalogue must match
 * (tests/unit/i18n.test.ts): a key that is not in it is a type error where it is used.
 * Each feature file of `locales/en/` is listed here; the same test checks that none is missing.
 */
import type authMessages from './locales/en/auth.json';
import type checkoutMessages from './locales/en/checkout.json';
import type commonMessages from './locales/en/common.json';
import type confirmMessages from './locales/en/confirm.json';
import type couponsMessages from './locales/en/coupons.json';
import type detailMessages from './locales/en/detail.json';
import type devmailMessages from './locales/en/devmail.json';
import type gateMessages from './locales/en/gate.json';
import type headerMessages from './locales/en/header.json';
import type homeMessages from './locales/en/home.json';
import type infoMessages from './locales/en/info.json';
import type listingMessages from './locales/en/listing.json';
import type lotteryMessages from './locales/en/lottery.json';
import type messagesMessages from './locales/en/messages.json';
import type opsMessages from './locales/en/ops.json';
import type opsStorefrontMessages from './locales/en/ops-storefront.json';
import type opsOnSaleMessages from './locales/en/ops-on-sale.json';
import type opsMediaMessages from './locales/en/ops-media.json';
import type opsStaffMessages from './locales/en/ops-staff.json';
import type opsCatalogueMessages from './locales/en/ops-catalogue.json';
import type ordersMessages from './locales/en/orders.json';
import type paymentMessages from './locales/en/payment.json';
import type profileMessages from './locales/en/profile.json';
import type transferMessages from './locales/en/transfer.json';
import type voucherMessages from './locales/en/voucher.json';
import type waitingRoomMessages from './locales/en/waiting-room.json';

type EnglishCatalogue = typeof authMessages &
  typeof checkoutMessages &
  typeof commonMessages &
  typeof confirmMessages &
  typeof couponsMessages &
  typeof detailMessages &
  typeof devmailMessages &
  typeof gateMessages &
  typeof headerMessages &
  typeof homeMessages &
  typeof infoMessages &
  typeof listingMessages &
  typeof lotteryMessages &
  typeof messagesMessages &
  typeof opsMessages &
  typeof opsStorefrontMessages &
  typeof opsOnSaleMessages &
  typeof opsMediaMessages &
  typeof opsStaffMessages &
  typeof opsCatalogueMessages &
  typeof ordersMessages &
  typeof paymentMessages &
  typeof profileMessages &
  typeof transferMessages &
  typeof voucherMessages &
  typeof waitingRoomMessages;

/** A plural message is stored as `key_one` / `key_other` and asked for as `key` with a `count`. */
type PluralBase<Key> = Key extends `${infer Base}_${'one' | 'other'}` ? Base : never;

export type MessageKey = keyof EnglishCatalogue | PluralBase<keyof EnglishCatalogue>;
