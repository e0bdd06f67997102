/**
 * What the signed-in page types of pages.mjs need: a new buyer (signed up through the real email
 * code flow and the dev outbox), an order awaiting payment, and a buyable listing. Their ids fill
 * the `{placeholders}` of those pages' paths.
 */

/** A listing the quality gates can check out: the first e-ticket offer on a tier of demo activity 1000. */
async function buyableListing(baseUrl, cookie) {
  const categories = await json(await fetch(`${baseUrl}/api/v1/ticketCategories?b2c=true&eventId=1000`, { headers: { cookie } }), 'ticket categories');
  for (const category of categories.filter((entry) => entry.hasTicket)) {
    const offers = await json(await fetch(`${baseUrl}/api/v8/tickets`, {
      method: 'POST', headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ eventId: 1000, ticketCategoryId: category.id, buyType: 1 }),
    }), 'ticket offers');
    const offer = offers.flatMap((entry) => entry.ticketGroupInfoList).find((group) => group.deliveryTypes.includes('e_ticket'));
    if (offer) return offer.ticketGroup.id;
  }
  throw new Error('The quality gates found no e-ticket listing on activity 1000.');
}

async function json(response, what) {
  const body = await response.json();
  if (body.code !== 200) throw new Error(`${what}: ${response.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** Signs up a buyer and places one order; resolves to { cookies, vars }. */
export async function signedInSession(baseUrl) {
  const email = `quality-${Date.now().toString(36)}@example.com`;
  const headers = { 'content-type': 'application/json' };
  await json(await fetch(`${baseUrl}/api/v1/user/mail/regVerify`, { method: 'POST', headers, body: JSON.stringify({ email }) }), 'regVerify');
  const outbox = await json(await fetch(`${baseUrl}/api/v1/dev/outbox?target=${encodeURIComponent(email)}`), 'dev outbox');
  const code = /\b(\d{6})\b/.exec(outbox[0]?.body ?? '')?.[1];
  const registered = await fetch(`${baseUrl}/api/v1/user/mail/register`, {
    method: 'POST', headers, body: JSON.stringify({ email, code, password: 'Quality2026', agreement: true }),
  });
  await json(registered.clone(), 'register');
  const cookies = registered.headers.getSetCookie().map((line) => {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at).trim(), value: pair.slice(at + 1).trim() };
  });
  const cookie = cookies.map(({ name, value }) => `${name}=${value}`).join('; ');

  const listingId = await buyableListing(baseUrl, cookie);
  const quote = await json(await fetch(`${baseUrl}/api/v1/checkout/quote?listingId=${listingId}&quantity=1&deliveryType=e_ticket&coupon=none`, { headers: { cookie } }), 'quote');
  const order = await json(await fetch(`${baseUrl}/api/v1/orders`, {
    method: 'POST',
    headers: { ...headers, cookie, 'idempotency-key': `quality-${Date.now()}` },
    body: JSON.stringify({ listingId, quantity: 1, deliveryType: 'e_ticket', paymentMethod: 'visa', coupon: 'none', acceptNotes: true, expectedTotal: quote.cost.total }),
  }), 'create order');
  return { cookies, cookie, vars: { listingId, orderId: order.id } };
}

/** A page type's path for a locale with its placeholders filled. */
export function pathOf(pageType, locale, vars = {}) {
  return pageType.paths[locale].replace(/\{(\w+)\}/g, (_, name) => {
    if (vars[name] === undefined) throw new Error(`${pageType.name}: no value for {${name}}`);
    return String(vars[name]);
  });
}
