/**
 * Chat and social apps open links in their own in-app browsers, where card pages, new windows and
 * other payment apps often do not work. The payment page recognises them by user agent and asks the
 * buyer to use the app's "Open in Browser" (SPEC.md section 8).
 */
export const IN_APP_BROWSERS = ['wechat', 'qq', 'weibo', 'alipay', 'dingtalk', 'line', 'facebook', 'instagram'] as const;
export type InAppBrowser = (typeof IN_APP_BROWSERS)[number];

// Order matters: an app's user agent may also name the engine of another one.
const SIGNATURES: ReadonlyArray<readonly [InAppBrowser, RegExp]> = [
  ['wechat', /MicroMessenger\//i],
  ['alipay', /AlipayClient\//i],
  ['dingtalk', /DingTalk\//i],
  ['weibo', /\bWeibo\b/i],
  // Mobile QQ says "QQ/8.9.0"; QQ Browser ("MQQBrowser/") is an ordinary browser.
  ['qq', /(^|[\s;])QQ\/\d/],
  ['line', /\bLine\/\d/],
  ['facebook', /\bFB(AN|AV|_IAB)\//],
  ['instagram', /\bInstagram\b/],
];

/** The chat or social app whose in-app browser this is, or null for an ordinary browser. */
export function inAppBrowserOf(userAgent: string | null | undefined): InAppBrowser | null {
  if (!userAgent) return null;
  for (const [app, pattern] of SIGNATURES) if (pattern.test(userAgent)) return app;
  return null;
}
