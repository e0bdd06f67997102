/**
 * The worker's configuration that services read: the app secret, the payment provider's keys and
 * the message providers' settings. The edge hands it in from the worker's env (the API's middleware, a page's
 * scope, the cron handler), so no service reads the `cloudflare:workers` global.
 */
export type ServiceEnv = Pick<
  Cloudflare.Env,
  | 'APP_ENV'
  | 'APP_SECRET'
  | 'STRIPE_SECRET_KEY'
  | 'STRIPE_WEBHOOK_SECRET'
  | 'STRIPE_ACCOUNT_COUNTRY'
  | 'STRIPE_API_URL'
  | 'MESSAGING_WEBHOOK_URL'
  | 'MESSAGING_WEBHOOK_TOKEN'
  | 'EMAIL_PROVIDER'
  | 'SMS_PROVIDER'
  | 'RESEND_API_KEY'
  | 'RESEND_API_URL'
  | 'EMAIL_FROM'
  | 'TWILIO_ACCOUNT_SID'
  | 'TWILIO_AUTH_TOKEN'
  | 'TWILIO_FROM'
  | 'TWILIO_MESSAGING_SERVICE_SID'
  | 'TWILIO_API_URL'
>;
