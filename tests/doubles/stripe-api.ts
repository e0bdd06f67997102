/**
 * A local double of the part of Stripe's API our adapter calls, answering as Stripe's API reference
 * describes (objects, errors, form-encoded parameters with bracket notation, expand[], idempotency
 * keys): Checkout Sessions, PaymentIntents (WeChat Pay's QR and Alipay's redirect as next actions),
 * Charges inside them, and Refunds. The tests start it on a free port and point the `stripe` client
 * at it (STRIPE_API_URL). What a buyer does on Stripe's pages is played by `/_double/…` calls, which
 * answer the Event Stripe would send, for the test to sign and deliver.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export const STRIPE_DOUBLE_API_VERSION = '2026-10-28.endive';

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: Json;
}

export interface StripeDouble {
  url: string;
  requests: RecordedRequest[];
  /** Every refund made, as Stripe holds them. */
  refunds(): Json[];
  close(): Promise<void>;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message));
  }
}

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Parses `a[b][0][c]=1&expand[]=x` into nested objects and arrays, as Stripe reads its form bodies. */
export function parseForm(body: string): Json {
  const root: Json = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: Json | unknown[] = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(parts[index + 1]);
      const key = Array.isArray(node) && part === '' ? node.length : part;
      const container = node as Record<string | number, unknown>;
      if (last) {
        container[key] = value;
      } else {
        container[key] ??= nextIsIndex ? [] : {};
        node = container[key] as Json | unknown[];
      }
    });
  }
  return root;
}

function missing(kind: string, value: string, param = 'id'): StripeApiError {
  return new StripeApiError(404, {
    code: 'resource_missing',
    doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
    message: `No such ${kind}: '${value}'`,
    param,
    type: 'invalid_request_error',
  });
}

function invalid(message: string, param?: string, code = 'parameter_invalid'): StripeApiError {
  return new StripeApiError(400, { code, message, ...(param ? { param } : {}), type: 'invalid_request_error' });
}

function integer(value: unknown, param: string): number {
  if (typeof value !== 'string' || !/^\d+$/.test(value))
    throw invalid(`Invalid integer: ${String(value)}`, param, 'parameter_invalid_integer');
  return Number(value);
}

function required(value: unknown, param: string): string {
  if (typeof value !== 'string' || value === '') throw invalid(`Missing required param: ${param}.`, param, 'parameter_missing');
  return value;
}

export async function startStripeDouble(): Promise<StripeDouble> {
  const sessions = new Map<string, Json>();
  const intents = new Map<string, Json>();
  const charges = new Map<string, Json>();
  const refunds = new Map<string, Json>();
  const idempotent = new Map<string, { params: string; status: number; body: Json }>();
  const requests: RecordedRequest[] = [];

  function intentObject(fields: { amount: number; currency: string; types: string[]; metadata: Json; description: string | null }): Json {
    return {
      id: id('pi'),
      object: 'payment_intent',
      allowed_payment_method_types: fields.types,
      amount: fields.amount,
      amount_capturable: 0,
      amount_received: 0,
      application: null,
      application_fee_amount: null,
      automatic_payment_methods: null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic_async',
      client_secret: `${id('pi')}_secret_${randomBytes(8).toString('hex')}`,
      confirmation_method: 'automatic',
      created: nowSeconds(),
      currency: fields.currency,
      customer: null,
      customer_account: null,
      description: fields.description,
      excluded_payment_method_types: null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      managed_payments: null,
      metadata: fields.metadata,
      next_action: null,
      on_behalf_of: null,
      payment_method: null,
      payment_method_configuration_details: null,
      payment_method_options: null,
      payment_method_types: fields.types,
      payment_record: null,
      processing: null,
      receipt_email: null,
      review: null,
      setup_future_usage: null,
      shipping: null,
      source: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'requires_payment_method',
      transfer_data: null,
      transfer_group: null,
    };
  }

  function succeed(intent: Json): void {
    const charge: Json = {
      id: id('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: 0,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: id('txn'),
      billing_details: { address: null, email: null, name: null, phone: null },
      calculated_statement_descriptor: 'TICKETS',
      captured: true,
      created: nowSeconds(),
      currency: intent.currency,
      customer: null,
      description: intent.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: null,
      failure_message: null,
      fraud_details: {},
      livemode: false,
      metadata: intent.metadata,
      on_behalf_of: null,
      outcome: { network_status: 'approved_by_network', type: 'authorized' },
      paid: true,
      payment_intent: intent.id,
      payment_method: id('pm'),
      payment_method_details: { type: (intent.payment_method_types as string[])[0] },
      receipt_email: null,
      receipt_number: null,
      receipt_url: null,
      refunded: false,
      review: null,
      shipping: null,
      source: null,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'succeeded',
      transfer_data: null,
      transfer_group: null,
    };
    charges.set(charge.id as string, charge);
    Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: charge.id,
      next_action: null,
      payment_method: charge.payment_method,
    });
  }

  function decline(intent: Json): void {
    Object.assign(intent, {
      status: 'requires_payment_method',
      next_action: null,
      last_payment_error: {
        code: 'payment_intent_authentication_failure',
        message: 'The provided PaymentMethod has failed authentication.',
        type: 'invalid_request_error',
      },
    });
  }

  /** An object with the paths of `expand[]` replaced by the objects they name. */
  function expanded(object: Json, expand: string[]): Json {
    const copy = structuredClone(object);
    for (const path of expand) {
      let node: Json | null = copy;
      const parts = path.split('.');
      parts.forEach((field, index) => {
        if (!node) return;
        const value = node[field];
        if (typeof value === 'string') {
          const found = intents.get(value) ?? charges.get(value);
          if (!found) throw invalid(`This property cannot be expanded (${path}).`, 'expand');
          node[field] = structuredClone(found);
        }
        node = index < parts.length - 1 ? (node[field] as Json | null) : null;
      });
    }
    return copy;
  }

  function event(type: string, object: Json): Json {
    return {
      id: id('evt'),
      object: 'event',
      api_version: STRIPE_DOUBLE_API_VERSION,
      created: nowSeconds(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  function sessionOf(sessionId: string): Json {
    const session = sessions.get(sessionId);
    if (!session) throw missing('checkout.session', sessionId);
    return session;
  }

  function intentOf(intentId: string): Json {
    const intent = intents.get(intentId);
    if (!intent) throw missing('payment_intent', intentId);
    return intent;
  }

  function createSession(params: Json): Json {
    if (params.mode !== 'payment') throw invalid('This double only takes payment mode.', 'mode');
    const items = params.line_items as Json[] | undefined;
    if (!items?.length) throw invalid('Missing required param: line_items.', 'line_items', 'parameter_missing');
    const priceData = items[0].price_data as Json;
    const currency = required(priceData?.currency, 'line_items[0][price_data][currency]');
    const amount =
      integer(priceData.unit_amount, 'line_items[0][price_data][unit_amount]') * integer(items[0].quantity, 'line_items[0][quantity]');
    const created = nowSeconds();
    const expiresAt = params.expires_at === undefined ? created + 24 * 3600 : integer(params.expires_at, 'expires_at');
    if (expiresAt < created + 30 * 60 || expiresAt > created + 24 * 3600) {
      throw invalid('The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', 'expires_at');
    }
    const types = (params.allowed_payment_method_types as string[] | undefined) ?? ['card'];
    const sessionId = `cs_test_${randomBytes(24).toString('hex')}`;
    const session: Json = {
      id: sessionId,
      object: 'checkout.session',
      adaptive_pricing: null,
      after_expiration: null,
      allow_promotion_codes: null,
      allowed_payment_method_types: types,
      amount_subtotal: amount,
      amount_total: amount,
      automatic_tax: { enabled: false, liability: null, status: null },
      billing_address_collection: null,
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      client_secret: null,
      collected_information: null,
      consent: null,
      consent_collection: null,
      created,
      currency,
      currency_conversion: null,
      custom_fields: [],
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: null,
      customer_account: null,
      customer_creation: 'if_required',
      customer_details: null,
      customer_email: null,
      discounts: [],
      expires_at: expiresAt,
      integration_identifier: null,
      invoice: null,
      invoice_creation: null,
      livemode: false,
      locale: params.locale ?? null,
      managed_payments: null,
      metadata: params.metadata ?? {},
      mode: 'payment',
      origin_context: null,
      payment_intent: null,
      payment_link: null,
      payment_method_collection: 'if_required',
      payment_method_configuration_details: null,
      payment_method_options: {},
      payment_method_types: types,
      payment_status: 'unpaid',
      permissions: null,
      recovered_from: null,
      saved_payment_method_options: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      status: 'open',
      submit_type: null,
      subscription: null,
      success_url: params.success_url ?? null,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `https://checkout.stripe.com/c/pay/${sessionId}`,
      wallet_options: null,
      // Kept for the session's PaymentIntent, made when the buyer pays (as Stripe does since 2022-08-01).
      _intent: { metadata: (params.payment_intent_data as Json | undefined)?.metadata ?? {} },
    };
    sessions.set(sessionId, session);
    return session;
  }

  function createIntent(params: Json): Json {
    const amount = integer(params.amount, 'amount');
    const currency = required(params.currency, 'currency');
    const types = (params.allowed_payment_method_types as string[] | undefined) ?? ['card'];
    const intent = intentObject({
      amount,
      currency,
      types,
      metadata: (params.metadata as Json) ?? {},
      description: (params.description as string) ?? null,
    });
    intents.set(intent.id as string, intent);
    if (params.confirm === 'true') {
      const type = required((params.payment_method_data as Json | undefined)?.type, 'payment_method_data[type]');
      if (!types.includes(type))
        throw invalid(`The PaymentMethod type ${type} is not allowed by allowed_payment_method_types.`, 'payment_method_data[type]');
      const returnUrl = params.return_url as string | undefined;
      if (type === 'wechat_pay') {
        if ((params.payment_method_options as Json | undefined)?.wechat_pay === undefined) {
          throw invalid(
            'payment_method_options[wechat_pay][client] is required for WeChat Pay.',
            'payment_method_options[wechat_pay][client]',
            'parameter_missing',
          );
        }
        const code = randomBytes(8).toString('hex');
        intent.next_action = {
          type: 'wechat_pay_display_qr_code',
          wechat_pay_display_qr_code: {
            data: `weixin://wxpay/bizpayurl?pr=${code}`,
            hosted_instructions_url: `https://payments.stripe.com/wechat_pay/qr/test_${code}`,
            image_data_url: 'data:image/png;base64,',
            image_url_png: `https://qr.stripe.com/test_${code}.png`,
            image_url_svg: `https://qr.stripe.com/test_${code}.svg`,
          },
        };
      } else if (type === 'alipay') {
        if (!returnUrl)
          throw invalid(
            'A return_url must be specified because this Payment Intent is configured to automatically accept the payment methods enabled in the Dashboard, some of which may require a full page redirect to succeed.',
            'return_url',
            'parameter_missing',
          );
        intent.next_action = {
          type: 'alipay_handle_redirect',
          alipay_handle_redirect: {
            native_data: null,
            native_url: null,
            return_url: returnUrl,
            url: `https://pm-redirects.stripe.com/authorize/acct_test/pa_nonce_${randomBytes(8).toString('hex')}`,
          },
        };
      } else {
        throw invalid(`This double confirms only wechat_pay and alipay, not ${type}.`, 'payment_method_data[type]');
      }
      intent.status = 'requires_action';
      intent.payment_method = id('pm');
    }
    return intent;
  }

  function createRefund(params: Json): Json {
    const intentId = required(params.payment_intent, 'payment_intent');
    const intent = intentOf(intentId);
    const charge = typeof intent.latest_charge === 'string' ? charges.get(intent.latest_charge) : undefined;
    if (intent.status !== 'succeeded' || !charge) {
      throw invalid(
        `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
        'payment_intent',
        'charge_not_refundable',
      );
    }
    const remaining = (charge.amount as number) - (charge.amount_refunded as number);
    const amount = params.amount === undefined ? remaining : integer(params.amount, 'amount');
    if (remaining === 0) throw invalid(`Charge ${charge.id} has already been refunded.`, undefined, 'charge_already_refunded');
    if (amount > remaining)
      throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`, 'amount', 'amount_too_large');
    const refund: Json = {
      id: id('re'),
      object: 'refund',
      amount,
      balance_transaction: id('txn'),
      charge: charge.id,
      created: nowSeconds(),
      currency: charge.currency,
      customer: null,
      customer_account: null,
      destination_details: null,
      metadata: params.metadata ?? {},
      payment_intent: intentId,
      payment_method: charge.payment_method,
      reason: params.reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    };
    refunds.set(refund.id as string, refund);
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    return refund;
  }

  /** The buyer on Stripe's pages: pays, is declined, or lets the session expire. Answers the Event Stripe sends. */
  function act(path: string[]): Json {
    const [kind, objectId, action] = path;
    if (kind === 'checkout_sessions') {
      const session = sessionOf(objectId);
      if (action === 'expire') {
        if (session.status !== 'open')
          throw invalid(
            `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          );
        Object.assign(session, { status: 'expired', url: null });
        return event('checkout.session.expired', publicSession(session));
      }
      const pending = session._intent as Json;
      const intent = intentObject({
        amount: session.amount_total as number,
        currency: session.currency as string,
        types: session.payment_method_types as string[],
        metadata: pending.metadata as Json,
        description: null,
      });
      intents.set(intent.id as string, intent);
      session.payment_intent = intent.id;
      if (action === 'pay') {
        succeed(intent);
        Object.assign(session, { status: 'complete', payment_status: 'paid', url: null });
        return event('checkout.session.completed', publicSession(session));
      }
      decline(intent);
      return event('payment_intent.payment_failed', intent);
    }
    const intent = intentOf(objectId);
    if (action === 'pay') {
      succeed(intent);
      return event('payment_intent.succeeded', intent);
    }
    decline(intent);
    return event('payment_intent.payment_failed', intent);
  }

  function publicSession(session: Json): Json {
    const { _intent: _, ...visible } = session;
    return visible;
  }

  function route(method: string, path: string, params: Json, expand: string[]): Json {
    const parts = path.split('/').filter(Boolean);
    if (parts[0] === '_double') {
      if (parts[1] === 'requests') return requests as unknown as Json;
      if (parts[1] === 'refunds') return [...refunds.values()] as unknown as Json;
      return act(parts.slice(1));
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') return publicSession(createSession(params));
    if (method === 'GET' && parts[1] === 'checkout' && parts[2] === 'sessions' && parts[3])
      return expanded(publicSession(sessionOf(parts[3])), expand);
    if (method === 'POST' && path === '/v1/payment_intents') return expanded(createIntent(params), expand);
    if (method === 'GET' && parts[1] === 'payment_intents' && parts[2]) return expanded(intentOf(parts[2]), expand);
    if (method === 'POST' && path === '/v1/refunds') return createRefund(params);
    throw new StripeApiError(404, { message: `Unrecognized request URL (${method}: ${path}).`, type: 'invalid_request_error' });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://double');
    const method = request.method ?? 'GET';
    const form = method === 'GET' ? url.searchParams.toString() : Buffer.concat(chunks).toString();
    const params = parseForm(form);
    const expand = ((params.expand as string[] | undefined) ?? []).filter((entry) => typeof entry === 'string');
    delete params.expand;
    const key = request.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' ? key : null;
    requests.push({ method, path: url.pathname, idempotencyKey, params });

    const send = (status: number, body: Json, replayed = false) => {
      response.writeHead(status, {
        'content-type': 'application/json',
        'request-id': id('req'),
        'stripe-version': STRIPE_DOUBLE_API_VERSION,
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
      });
      response.end(JSON.stringify(body));
    };

    if (!url.pathname.startsWith('/_double/') && !/^Bearer sk_test_\w+$/.test(request.headers.authorization ?? '')) {
      send(401, { error: { message: 'Invalid API Key provided: (none or not a test key)', type: 'invalid_request_error' } });
      return;
    }
    if (method === 'POST' && idempotencyKey) {
      const earlier = idempotent.get(idempotencyKey);
      if (earlier) {
        if (earlier.params !== form) {
          send(400, {
            error: {
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              type: 'idempotency_error',
            },
          });
        } else {
          send(earlier.status, earlier.body, true);
        }
        return;
      }
    }
    let status = 200;
    let body: Json;
    try {
      body = route(method, url.pathname, params, expand);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      body = { error: error.body };
    }
    if (method === 'POST' && idempotencyKey && !url.pathname.startsWith('/_double/'))
      idempotent.set(idempotencyKey, { params: form, status, body });
    send(status, body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error), type: 'api_error' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    refunds: () => [...refunds.values()],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
