/** The encoder core of the `qrcode` package (no renderers, no Node built-ins), as payment-qr.ts uses it. */
declare module 'qrcode/lib/core/qrcode.js' {
  export interface QrSymbol {
    modules: { size: number; get(row: number, col: number): number | boolean };
  }
  export function create(text: string, options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' }): QrSymbol;
}
