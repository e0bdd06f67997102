import { describe, expect, it } from 'vitest';
import { composeMessage } from '../../src/lib/domain/message-text.ts';
import { MESSAGE_KINDS, type MessageChannel, type MessageFacts, type MessageKind } from '../../src/lib/domain/messages.ts';
import { translator } from '../../src/lib/i18n/index.ts';
import { LOCALES, type Locale } from '../../src/lib/i18n/locales.ts';

/** Facts as long as real ones, in the recipient's language, as the queue consumer would format them. */
interface Sample {
  activity: string;
  session: string;
  newSession: string;
  venue: string;
  deadline: string;
  address: string;
  taker: string;
  tier: string;
}

const english: Sample = {
  activity: 'Jacky Cheung 60+ World Tour, Hong Kong',
  session: 'Sat 12 Dec 2026 20:00',
  newSession: 'Sat 20 Feb 2027 20:00',
  venue: 'Hong Kong Coliseum',
  deadline: 'Sat 12 Dec 2026 14:35',
  address: 'Ticket Office 2, Hong Kong Coliseum, 9 Cheong Wan Road, Hung Hom',
  taker: 'Chan Tai Man',
  tier: 'VIP Standing',
};
const traditional: Sample = {
  activity: '張學友 60+ 巡迴演唱會 香港站',
  session: '2026年12月12日（六）20:00',
  newSession: '2027年2月20日（六）20:00',
  venue: '紅磡香港體育館',
  deadline: '2026年12月12日 14:35',
  address: '九龍紅磡暢運道9號香港體育館2號售票處',
  taker: '陳大文',
  tier: 'VIP 企位',
};
const simplified: Sample = {
  ...traditional,
  activity: '张学友 60+ 巡回演唱会 香港站',
  venue: '红磡香港体育馆',
  address: '九龙红磡畅运道9号香港体育馆2号售票处',
  taker: '陈大文',
  tier: 'VIP 站席',
};
const SAMPLES: Record<Locale, Sample> = { en: english, 'zh-HK': traditional, 'zh-TW': traditional, 'zh-CN': simplified };

const ORDER_NO = 'TW2612120001';
const LINK = 'https://ticketwing.hk/zh-HK/orders/1234567';

function factsOf(kind: MessageKind, sample: Sample, overrides: Partial<Sample> = {}, won = true): MessageFacts {
  const s = { ...sample, ...overrides };
  const show = { activity: s.activity, session: s.session, venue: s.venue, link: LINK };
  const order = { ...show, orderNo: ORDER_NO, tier: s.tier, quantity: 2, unitPrice: 'HK$1,280.00', total: 'HK$2,560.00' };
  switch (kind) {
    case 'order_placed':
    case 'payment_failed':
      return { kind, ...order, paymentDeadline: s.deadline };
    case 'payment_received':
    case 'tickets_issued':
    case 'order_expired':
    case 'show_cancelled':
      return { kind, ...order };
    case 'pickup_details':
      return { kind, ...order, pickupAddress: s.address, pickupTime: s.deadline, takerName: s.taker };
    case 'courier_shipped':
      return { kind, ...order, trackingNo: 'SF1234567890123' };
    case 'refund_made':
      return { kind, ...order, refundAmount: 'HK$2,400.00' };
    case 'show_postponed':
      return { kind, ...order, newSession: s.newSession, refundUntil: s.deadline };
    case 'listing_sold':
      return { kind, ...show, quantity: 2, payout: 'HK$2,280.00' };
    case 'waitlist_offer':
      return { kind, ...show, tier: s.tier, quantity: 3, holdUntil: s.deadline };
    case 'lottery_result':
      return { kind, ...show, won };
    case 'sale_started':
      return { kind, ...show };
    case 'attendee_change_approved':
    case 'attendee_change_refused':
      return { kind, ...order, attendee: s.taker };
  }
}

const CHANNELS: readonly MessageChannel[] = ['email', 'sms'];
const CJK = /[\u4E00-\u9FFF]/;
const hasOrder = (kind: MessageKind) => !['listing_sold', 'waitlist_offer', 'lottery_result', 'sale_started'].includes(kind);
/** Each kind, with the lottery's lost result as its own case. */
const CASES = [...MESSAGE_KINDS.map((kind) => ({ kind, won: true })), { kind: 'lottery_result' as const, won: false }];

describe('composeMessage', () => {
  for (const locale of LOCALES) {
    const t = translator(locale);
    for (const { kind, won } of CASES) {
      for (const channel of CHANNELS) {
        it(`${locale} ${kind}${won ? '' : ' (lost)'} by ${channel}: every text found and filled`, () => {
          const message = composeMessage(factsOf(kind, SAMPLES[locale], {}, won), channel, t);
          for (const text of [message.subject, message.text, message.html ?? '']) {
            expect(text).not.toContain('{{');
            expect(text).not.toContain('message.');
            expect(text).not.toMatch(/[\uE000\uE001]/);
          }
          expect(message.subject.trim()).not.toBe('');
          expect(message.text).toContain(LINK);
          expect(message.text).toContain(SAMPLES[locale].activity);
          if (hasOrder(kind)) expect(message.text).toContain(ORDER_NO);
          if (hasOrder(kind) && channel === 'email') expect(message.text).toContain('HK$1,280.00');
          if (locale === 'en') expect(message.text).not.toMatch(CJK);
          else expect(message.text).toMatch(CJK);
          if (channel === 'sms') expect(message.html).toBeNull();
          else expect(message.html).toContain(`href="${LINK}"`);
        });
      }
    }
  }

  it('escapes every fact in the HTML and keeps it as written in the text', () => {
    const hostile = '<script>alert(1)</script> & "x"';
    const escaped = '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;';
    for (const locale of LOCALES) {
      for (const { kind, won } of CASES) {
        const facts = factsOf(kind, SAMPLES[locale], Object.fromEntries(Object.keys(english).map((name) => [name, hostile])), won);
        const message = composeMessage(facts, 'email', translator(locale));
        expect(message.html, `${locale} ${kind}`).not.toContain('<script>');
        expect(message.html, `${locale} ${kind}`).not.toContain('"x"');
        expect(message.html, `${locale} ${kind}`).toContain(escaped);
        expect(message.text, `${locale} ${kind}`).toContain(hostile);
      }
    }
  });

  it('escapes the link in its href and takes only a web address', () => {
    const facts = { ...factsOf('tickets_issued', english), link: 'https://ticketwing.hk/voucher?id=1&x="><b>' };
    const html = composeMessage(facts, 'email', translator('en')).html!;
    expect(html).toContain('href="https://ticketwing.hk/voucher?id=1&amp;x=&quot;&gt;&lt;b&gt;"');
    expect(html).not.toContain('<b>');
    expect(() => composeMessage({ ...facts, link: 'javascript:alert(1)' }, 'email', translator('en'))).toThrow(/http/);
  });

  it('leaves facts that look like i18next syntax as written', () => {
    const tricky = '{{link}} $t(message.common.footer)';
    const message = composeMessage(factsOf('tickets_issued', english, { activity: tricky }), 'sms', translator('en'));
    expect(message.text).toContain(tricky);
  });

  it('sets the HTML language from the catalogue', () => {
    expect(composeMessage(factsOf('order_placed', english), 'email', translator('en')).html).toContain('<html lang="en">');
    expect(composeMessage(factsOf('order_placed', traditional), 'email', translator('zh-HK')).html).toContain('<html lang="zh-Hant">');
    expect(composeMessage(factsOf('order_placed', simplified), 'email', translator('zh-CN')).html).toContain('<html lang="zh-Hans">');
  });

  it('keeps an SMS short: 3 segments at most in Chinese (1 without its facts), 300 characters in English', () => {
    const blank: Sample = { activity: '', session: '', newSession: '', venue: '', deadline: '', address: '', taker: '', tier: '' };
    for (const locale of LOCALES) {
      const t = translator(locale);
      for (const { kind, won } of CASES) {
        const { text } = composeMessage(factsOf(kind, SAMPLES[locale], {}, won), 'sms', t);
        // A UCS-2 SMS of several segments carries 67 characters in each.
        expect(text.length, `${locale} ${kind}: ${text}`).toBeLessThanOrEqual(locale === 'en' ? 300 : 3 * 67);
        if (locale !== 'en') {
          const template = composeMessage(factsOf(kind, blank, {}, won), 'sms', t)
            .text.replace(LINK, '')
            .replace(ORDER_NO, '');
          expect(template.length, `${locale} ${kind}: ${template}`).toBeLessThanOrEqual(70);
        }
      }
    }
  });

  it('tells a lottery winner something else than a loser', () => {
    for (const locale of LOCALES) {
      const t = translator(locale);
      for (const channel of CHANNELS) {
        const wonMessage = composeMessage(factsOf('lottery_result', SAMPLES[locale], {}, true), channel, t);
        const lostMessage = composeMessage(factsOf('lottery_result', SAMPLES[locale], {}, false), channel, t);
        expect(wonMessage.subject).not.toBe(lostMessage.subject);
        expect(wonMessage.text).not.toBe(lostMessage.text);
      }
    }
  });

  it('reads naturally in English: plurals, the order lines and a postponed show under its new date', () => {
    const t = translator('en');
    const sold = composeMessage(factsOf('listing_sold', english), 'sms', t).text;
    expect(sold).toContain('2 tickets you listed');
    const one = { ...(factsOf('listing_sold', english) as Extract<MessageFacts, { kind: 'listing_sold' }>), quantity: 1 };
    expect(composeMessage(one, 'email', t).subject).toBe(`Your ticket for ${english.activity} sold`);
    const placed = composeMessage(factsOf('order_placed', english), 'email', t).text;
    expect(placed).toContain(`Order ${ORDER_NO}\nVIP Standing: 2 × HK$1,280.00 incl. service fee, total HK$2,560.00`);
    expect(placed).toContain(`Pay now: ${LINK}`);
    const postponed = composeMessage(factsOf('show_postponed', english), 'email', t).text;
    expect(postponed).toContain(`${english.newSession} · ${english.venue}`);
  });
});
