/**
 * The one error envelope. Every failure is an ApiError with an HTTP status and a stable
 * snake_case `errorCode`, which is also the catalogue key `error.{errorCode}` of its message.
 */
export type ErrorCode =
  | 'invalid_input'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'internal';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500;

export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly errorCode: ErrorCode;
  readonly params: Record<string, string | number>;
  /** The offending input field, for validation errors. */
  readonly field?: string;

  constructor(status: ErrorStatus, errorCode: ErrorCode, params: Record<string, string | number> = {}, field?: string) {
    super(errorCode);
    this.status = status;
    this.errorCode = errorCode;
    this.params = params;
    this.field = field;
  }
}

export interface SuccessEnvelope<T> {
  code: 200;
  data: T;
  message: '';
}

export interface ErrorEnvelope {
  code: number;
  data: null;
  message: string;
  errorCode: string;
  field?: string;
}

export function success<T>(data: T): SuccessEnvelope<T> {
  return { code: 200, data, message: '' };
}
