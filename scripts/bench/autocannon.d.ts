/** The part of autocannon's API the benches use (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request) => Request;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    requests?: Request[];
  }

  export interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: { average: number };
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): this;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
