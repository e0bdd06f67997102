/**
 * The API's own description: every route says what it does, under which tag, and which sign-in it
 * needs (`describe`); the OpenAPI document is generated from those and from the routes' zod schemas
 * (validate.ts's `input`), and served with a plain reading page in local builds only.
 */
import type { Hono } from 'hono';
import { describeRoute, generateSpecs } from 'hono-openapi';
import type { OpenAPIV3_1 } from 'openapi-types';
import { TOKEN_COOKIE } from '../config/request.ts';
import type { ApiEnv } from './context.ts';

/** Who may call a route: anyone, a visitor or a signed-in user alike (`maybe`), or only a signed-in user. */
export type Access = 'anyone' | 'maybe' | 'user';

const SESSION_SCHEME = 'session';

/** OpenAPI security requirements per access: `{}` is the requirement that is always met. */
const SECURITY: Record<Access, OpenAPIV3_1.SecurityRequirementObject[]> = {
  anyone: [],
  maybe: [{}, { [SESSION_SCHEME]: [] }],
  user: [{ [SESSION_SCHEME]: [] }],
};

const ACCESS_LABEL: Record<Access, string> = {
  anyone: 'no sign-in',
  maybe: 'sign-in optional',
  user: 'signed in',
};

/** The description middleware of one route of a group: `const doc = describe('Addresses'); ….get(path, doc.user('…'), …)`. */
export function describe(tag: string) {
  const route = (access: Access) => (summary: string) =>
    describeRoute({ summary, tags: [tag], security: SECURITY[access], 'x-access': access } as Parameters<typeof describeRoute>[0]);
  return { anyone: route('anyone'), maybe: route('maybe'), user: route('user') };
}

/** The OpenAPI document of the routes mounted at /api. */
export async function openApiDocument(routes: Hono<ApiEnv>): Promise<OpenAPIV3_1.Document> {
  return (await generateSpecs(routes, {
    documentation: {
      openapi: '3.1.0',
      info: {
        title: 'Ticket marketplace API',
        version: '1',
        description: 'Answers are the envelope { code, data, message }; errors add errorCode and field.',
      },
      servers: [{ url: '/api' }],
      components: {
        securitySchemes: {
          [SESSION_SCHEME]: { type: 'apiKey', in: 'cookie', name: TOKEN_COOKIE, description: 'The session token set by a sign-in' },
        },
      },
    },
    defaultValidationErrorResponse: {
      description: 'invalid_input (or text_malformed) on the named field: { code: 400, data: null, message, errorCode, field }',
    },
  })) as OpenAPIV3_1.Document;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A plain HTML list of the document's operations by tag: no script and no style, so the API's CSP holds. */
export function docsPage(document: OpenAPIV3_1.Document): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method] as (OpenAPIV3_1.OperationObject & { 'x-access'?: Access }) | undefined;
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      const access = operation['x-access'] ? ` (${ACCESS_LABEL[operation['x-access']]})` : '';
      const line = `<li><code>${method.toUpperCase()} /api${escapeHtml(path)}</code> ${escapeHtml(operation.summary ?? '')}${access}</li>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), line]);
    }
  }
  const sections = [...byTag].map(([tag, lines]) => `<h2>${escapeHtml(tag)}</h2>\n<ul>\n${lines.join('\n')}\n</ul>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)}</title></head>
<body><h1>${escapeHtml(document.info.title)}</h1>
<p>${escapeHtml(document.info.description ?? '')} The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
${sections}
</body></html>
`;
}
