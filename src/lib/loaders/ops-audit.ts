/**
 * The audit log page (operators): the filters as the form sent them (who, an action or its start,
 * the subject, a range of UTC days), one page of rows newest first, and the link to the older ones.
 * Each row's before and after are JSON text, for the page to print as text.
 */
import type { AstroGlobal } from 'astro';
import { AUDIT_PAGE_SIZE } from '../config/staff.ts';
import { type AuditFilter, auditRecords } from '../services/staff/audit.ts';
import { staffMembers } from '../services/staff/members.ts';
import { PageExit } from './page-exit.ts';
import { staffPage } from './staff-page.ts';

const DAY_MS = 24 * 3600 * 1000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[1-9]\d{0,9}$/;
const TEXT_MAX = 128;

export interface AuditForm {
  actor: string;
  action: string;
  subjectType: string;
  subjectId: string;
  from: string;
  until: string;
}

/** A UTC day's first millisecond, or null for anything that is not a real YYYY-MM-DD day. */
function dayStart(value: string): number | null {
  if (!DAY.test(value)) return null;
  const at = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== value ? null : at;
}

const text = (params: URLSearchParams, name: string) => (params.get(name) ?? '').trim().slice(0, TEXT_MAX);

/** The filter the form's fields say; `badDate` when a day was given that is no day (it is then left out). */
export function auditFilterOf(params: URLSearchParams): { form: AuditForm; filter: AuditFilter; badDate: boolean } {
  const form: AuditForm = {
    actor: text(params, 'actor'),
    action: text(params, 'action'),
    subjectType: text(params, 'subjectType'),
    subjectId: text(params, 'subjectId'),
    from: text(params, 'from'),
    until: text(params, 'until'),
  };
  const from = form.from ? dayStart(form.from) : null;
  const until = form.until ? dayStart(form.until) : null;
  const before = text(params, 'before');
  const filter: AuditFilter = {
    actorId: ID.test(form.actor) ? Number(form.actor) : undefined,
    action: form.action || undefined,
    subjectType: form.subjectType || undefined,
    subjectId: form.subjectId || undefined,
    from: from ?? undefined,
    until: until === null ? undefined : until + DAY_MS - 1,
    before: ID.test(before) ? Number(before) : undefined,
    limit: AUDIT_PAGE_SIZE,
  };
  return { form, filter, badDate: (form.from !== '' && from === null) || (form.until !== '' && until === null) };
}

export async function loadAudit(astro: Pick<AstroGlobal, 'locals' | 'url'>) {
  const page = await staffPage(astro, 'audit');
  if (page instanceof PageExit) return page;
  const { form, filter, badDate } = auditFilterOf(astro.url.searchParams);
  const [records, members] = await Promise.all([auditRecords(page.scope.db, filter), staffMembers(page.scope)]);
  const older = new URLSearchParams(Object.entries(form).filter(([, value]) => value !== ''));
  if (records.length === AUDIT_PAGE_SIZE) older.set('before', String(records[records.length - 1].id));
  return {
    roles: page.scope.staffRoles,
    form,
    badDate,
    actors: members.map((member) => ({ id: member.userId, name: member.nickname })),
    rows: records.map((record) => ({
      ...record,
      at: new Date(record.at).toISOString().replace('T', ' ').slice(0, 19),
      before: record.before === null ? null : JSON.stringify(record.before, null, 2),
      after: record.after === null ? null : JSON.stringify(record.after, null, 2),
    })),
    olderQuery: records.length === AUDIT_PAGE_SIZE ? `?${older}` : null,
    paged: filter.before !== undefined,
  };
}
