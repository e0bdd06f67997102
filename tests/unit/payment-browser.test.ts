import { describe, expect, it } from 'vitest';
import { inAppBrowserOf } from '../../src/lib/domain/payment-browser.ts';

const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';

describe('inAppBrowserOf', () => {
  it('recognises the chat and social apps by their user agents', () => {
    expect(
      inAppBrowserOf(
        `${ANDROID} XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F35) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64`,
      ),
    ).toBe('wechat');
    expect(inAppBrowserOf(`${IPHONE} MicroMessenger/8.0.44(0x18002c2d) NetType/WIFI Language/zh_HK`)).toBe('wechat');
    expect(inAppBrowserOf(`${IPHONE} QQ/8.9.80.633 V1_IPH_SQ_8.9.80_1_APP_A Pixel/1170 Core/WKWebView`)).toBe('qq');
    expect(inAppBrowserOf(`${IPHONE} Weibo (iPhone15,2__weibo__13.11.0__iphone__os17.1)`)).toBe('weibo');
    expect(inAppBrowserOf(`${ANDROID} AlipayClient/10.5.36.7000 Language/zh-Hans`)).toBe('alipay');
    expect(inAppBrowserOf(`${ANDROID} DingTalk/7.5.0 Channel/201200`)).toBe('dingtalk');
    expect(inAppBrowserOf(`${IPHONE} Safari Line/13.20.0`)).toBe('line');
    expect(inAppBrowserOf(`${IPHONE} [FBAN/FBIOS;FBAV/440.0.0.32.109;FBBV/538417226]`)).toBe('facebook');
    expect(inAppBrowserOf(`${IPHONE} Instagram 312.0.0.32.112 (iPhone15,2; iOS 17_1; zh_HK)`)).toBe('instagram');
  });

  it('leaves ordinary browsers alone, QQ Browser included', () => {
    expect(inAppBrowserOf(ANDROID)).toBeNull();
    expect(inAppBrowserOf(`${IPHONE} Version/17.1 Safari/604.1`)).toBeNull();
    expect(inAppBrowserOf(`${ANDROID} MQQBrowser/13.4 Mobile`)).toBeNull();
    expect(
      inAppBrowserOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36 Edg/120'),
    ).toBeNull();
    expect(inAppBrowserOf(null)).toBeNull();
    expect(inAppBrowserOf('')).toBeNull();
  });
});
