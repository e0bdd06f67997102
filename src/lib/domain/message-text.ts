/**
 * The text of a message to a buyer or seller: its facts, already localized, put into the
 * catalogue's `message.*` texts. An email gets a subject, a plain text and a small HTML page with
 * inline styles only (mail clients drop style sheets); an SMS gets one short text.
 */
import type { MessageKey, Translate } from '../i18n/index.ts';
import type { ComposedMessage, MessageChannel, MessageFacts, MessageKind } from './messages.ts';

/** The catalogue texts of one message: a kind, or the lottery's won or lost result. */
type Variant = Exclude<MessageKind, 'lottery_result'> | 'lottery_result.won' | 'lottery_result.lost';
type Part = 'subject' | 'body' | 'sms' | 'action';
type Params = Record<string, string | number>;

/** A text in both forms: as it reads, and as HTML with every fact and the text itself escaped. */
interface Line {
  text: string;
  html: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

function keyOf(variant: Variant, part: Part): MessageKey {
  // The template type is every variant × part: a text missing from the English catalogue fails to compile.
  const key: `message.${Variant}.${Part}` = `message.${variant}.${part}`;
  return key;
}

/**
 * Facts go into a text as markers that are swapped for the facts afterwards, so that i18next never
 * reads a fact (one holding `{{…}}` or `$t(…)` stays as written) and the HTML form can escape the
 * catalogue text and each fact exactly once. Numbers (counts) go in as they are: plurals need them.
 */
function line(t: Translate, key: MessageKey, params: Params = {}): Line {
  const facts: string[] = [];
  const marked: Params = {};
  for (const [name, value] of Object.entries(params)) {
    marked[name] = typeof value === 'number' ? value : `\uE000${facts.push(value) - 1}\uE001`;
  }
  const template = t(key, marked);
  const fill = (text: string, form: (fact: string) => string) =>
    text.replace(/\uE000(\d+)\uE001/g, (_, index: string) => form(facts[Number(index)]));
  return { text: fill(template, (fact) => fact), html: fill(escapeHtml(template), escapeHtml) };
}

/** Every fact a text may name, plus `count` for the plural forms of a quantity. */
function paramsOf(facts: MessageFacts): Params {
  const params: Params = {};
  for (const [name, value] of Object.entries(facts)) {
    if (typeof value === 'string' || typeof value === 'number') params[name] = value;
  }
  if ('quantity' in facts) params.count = facts.quantity;
  return params;
}

/** The link goes into an `href`: only a web address may, never a `javascript:` or `data:` one. */
function checkedLink(link: string): string {
  if (!/^https?:\/\//i.test(link)) throw new Error(`A message link must be an absolute http(s) URL, not ${JSON.stringify(link)}`);
  return link;
}

/** The show and order lines under the body: what, when, where, and the order's numbers. */
function detailLines(facts: MessageFacts, t: Translate): Line[] {
  // A postponed show is named with its new date: the old one is in the body.
  const session = facts.kind === 'show_postponed' ? facts.newSession : facts.session;
  const lines = [line(t, 'message.common.showLine', { session, venue: facts.venue })];
  if ('orderNo' in facts) {
    lines.push(line(t, 'message.common.orderLine', { orderNo: facts.orderNo }));
    lines.push(
      line(t, 'message.common.ticketsLine', { tier: facts.tier, quantity: facts.quantity, unitPrice: facts.unitPrice, total: facts.total }),
    );
  }
  return lines;
}

const BODY =
  "margin:0;padding:24px 12px;background:#f4f4f5;color:#18181b;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6";
const CARD = 'max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px';
const DETAILS = 'margin:16px 0;padding:12px 16px;background:#f4f4f5;border-radius:6px;font-size:14px';
const BUTTON =
  'display:inline-block;padding:12px 24px;background:#d81e2c;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold';
const FOOTER = 'max-width:560px;margin:16px auto 0;color:#71717a;font-size:12px';

/** The message for one channel, in the language of `t`. Pure: the same facts give the same message. */
export function composeMessage(facts: MessageFacts, channel: MessageChannel, t: Translate): ComposedMessage {
  const variant: Variant = facts.kind === 'lottery_result' ? `lottery_result.${facts.won ? 'won' : 'lost'}` : facts.kind;
  const link = checkedLink(facts.link);
  const params = paramsOf(facts);
  const subject = line(t, keyOf(variant, 'subject'), params);

  if (channel === 'sms') {
    const sms = line(t, keyOf(variant, 'sms'), params);
    return { subject: subject.text, text: line(t, 'message.common.sms', { text: sms.text }).text, html: null };
  }

  const greeting = line(t, 'message.common.greeting');
  const body = line(t, keyOf(variant, 'body'), params);
  const activity: Line = { text: facts.activity, html: escapeHtml(facts.activity) };
  const details = detailLines(facts, t);
  const action = line(t, keyOf(variant, 'action'), params);
  const signOff = line(t, 'message.common.signOff');
  const footer = line(t, 'message.common.footer');

  const text = [
    greeting.text,
    body.text,
    [activity, ...details].map((detail) => detail.text).join('\n'),
    line(t, 'message.common.linkLine', { label: action.text, link }).text,
    signOff.text,
    `-- \n${footer.text}`,
  ].join('\n\n');

  const html = [
    '<!DOCTYPE html>',
    `<html lang="${escapeHtml(t('message.common.htmlLang'))}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${subject.html}</title></head>`,
    `<body style="${BODY}">`,
    `<div style="${CARD}">`,
    `<p style="margin:0 0 16px">${greeting.html}</p>`,
    ...body.html.split('\n').map((paragraph) => `<p style="margin:0 0 12px">${paragraph}</p>`),
    `<p style="${DETAILS}"><strong>${activity.html}</strong><br>${details.map((detail) => detail.html).join('<br>')}</p>`,
    `<p style="margin:24px 0"><a href="${escapeHtml(link)}" style="${BUTTON}">${action.html}</a></p>`,
    `<p style="margin:0">${signOff.html}</p>`,
    '</div>',
    `<p style="${FOOTER}">${footer.html}</p>`,
    '</body>',
    '</html>',
  ].join('\n');

  return { subject: subject.text, text, html };
}
