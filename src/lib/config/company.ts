/** The company as the pages show it: support contacts and hours, social links, terms, the footer. */

export const SUPPORT_HOURS = { weekdays: '10:00-18:00', weekends: '10:00-17:00' } as const;
export const SUPPORT_PHONES = ['+852 3001 8866', '+852 3001 8877'] as const;
export const SUPPORT_EMAIL = 'support@ticketwing.example';
export const SOCIAL_LINKS = [
  { name: 'Facebook', url: 'https://www.facebook.com/' },
  { name: 'Instagram', url: 'https://www.instagram.com/' },
  { name: 'YouTube', url: 'https://www.youtube.com/' },
  { name: 'X', url: 'https://x.com/' },
] as const;
export const TERMS_LAST_UPDATED = '2024-07-16';
export const COPYRIGHT_YEAR = 2024;
export const LIABILITY_CAP_HKD_MINOR = 50_000;
/** The payment logos of the footer (SPEC.md section 2): card brands, WeChat, Alipay, PayPal, PayNow. */
export const FOOTER_PAYMENT_LOGOS = ['visa', 'mastercard', 'amex', 'unionpay', 'wechat_pay', 'alipay', 'paypal', 'paynow'] as const;
