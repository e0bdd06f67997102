/**
 * Free-ticket lotteries from the console: the prize (tickets of one tier, how many winners, tickets
 * each), the codes an entry may collect, the entry window and the draw time. The draw's seed is
 * made here from crypto.getRandomValues and only its commitment is published (domain/lottery.ts);
 * the audit rows never carry the seed. Buyers see a lottery from the opening of its entries, never
 * once retired (on-sale/lottery-draw.ts, findLottery); only a lottery nobody entered is retired.
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import { activitySessions, lotteries, lotteryEntries, ticketTiers } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { seedCommitment } from '../../domain/lottery.ts';
import { lotteryEditFault, lotteryPlanFault, type LotteryPlan } from '../../domain/storefront-schedule.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { found, refuse, withNewId } from './curation.ts';

export type LotteryInput = LotteryPlan;

/** scheduled: entries not open yet; live: open or waiting for its draw; ended: drawn. */
export type LotteryState = 'scheduled' | 'live' | 'ended' | 'retired';

type LotteryRow = typeof lotteries.$inferSelect;

export interface LotteryRecord extends Omit<LotteryRow, 'seed'> {
  entries: number;
  state: LotteryState;
}

function stateOf(row: LotteryRow, now: number): LotteryState {
  if (row.retiredAt !== null) return 'retired';
  if (row.status === 'drawn') return 'ended';
  return now < row.entryOpensAt ? 'scheduled' : 'live';
}

/** What the console and the audit log see of a lottery: everything but its secret seed. */
function recordOf({ seed: _secret, ...row }: LotteryRow, entries: number, now: number): LotteryRecord {
  return { ...row, entries, state: stateOf({ ...row, seed: null }, now) };
}

/** Every lottery, latest draw first, with its entries so far. */
export async function listLotteryRecords(scope: StaffScope): Promise<LotteryRecord[]> {
  const { db, now } = scope;
  const [rows, counts] = await Promise.all([
    db.select().from(lotteries).orderBy(desc(lotteries.drawAt), desc(lotteries.id)),
    db.select({ lotteryId: lotteryEntries.lotteryId, n: count() }).from(lotteryEntries).groupBy(lotteryEntries.lotteryId),
  ]);
  const entriesOf = new Map(counts.map((row) => [row.lotteryId, row.n]));
  return rows.map((row) => recordOf(row, entriesOf.get(row.id) ?? 0, now));
}

async function lotteryWithEntries(scope: StaffScope, id: number) {
  const [[row], [entries]] = await Promise.all([
    scope.db.select().from(lotteries).where(eq(lotteries.id, id)),
    scope.db.select({ n: count() }).from(lotteryEntries).where(eq(lotteryEntries.lotteryId, id)),
  ]);
  return { row: found(row), entries: entries.n };
}

/** The activity of the prize's tier, or 404 ticket_category_not_found on the tier field. */
async function activityOfTier(scope: StaffScope, tierId: number): Promise<number> {
  const [tier] = await scope.db
    .select({ activityId: activitySessions.activityId })
    .from(ticketTiers)
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .where(eq(ticketTiers.id, tierId));
  if (!tier) throw new DomainError('ticket_category_not_found', {}, 'tierId');
  return tier.activityId;
}

function randomSeed(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function createLottery(scope: StaffScope, input: LotteryInput): Promise<LotteryRecord> {
  refuse(lotteryPlanFault(input, scope.now));
  const activityId = await activityOfTier(scope, input.tierId);
  const seed = randomSeed();
  const commitment = await seedCommitment(seed);
  return withNewId(scope.db, lotteries, lotteries.id, async (id) => {
    const row: LotteryRow = {
      id,
      activityId,
      seed,
      seedCommitment: commitment,
      status: 'open',
      drawnAt: null,
      retiredAt: null,
      ...input,
    };
    const record = recordOf(row, 0, scope.now);
    await batch(scope.db, {
      insert: scope.db.insert(lotteries).values(row),
      audit: auditEntry(scope, { action: 'lottery.create', subjectType: 'lottery', subjectId: id, before: null, after: record }),
    });
    return record;
  });
}

/** An edit within lotteryEditFault's limits: once entries opened, only the close and the draw move, never into the past. */
export async function updateLottery(scope: StaffScope, id: number, input: LotteryInput): Promise<LotteryRecord> {
  const { row, entries } = await lotteryWithEntries(scope, id);
  refuse(lotteryEditFault(row, input, scope.now));
  const activityId = input.tierId === row.tierId ? row.activityId : await activityOfTier(scope, input.tierId);
  const before = recordOf(row, entries, scope.now);
  const after = recordOf({ ...row, ...input, activityId }, entries, scope.now);
  await batch(scope.db, {
    // Guarded on the lottery still open: a draw that claimed it meanwhile keeps its times.
    update: scope.db
      .update(lotteries)
      .set({ ...input, activityId })
      .where(and(eq(lotteries.id, id), eq(lotteries.status, 'open'))),
    audit: auditEntry(scope, { action: 'lottery.update', subjectType: 'lottery', subjectId: id, before, after }),
  });
  return after;
}

/** Withdraws a lottery nobody has entered (409 lottery_not_editable otherwise); it never draws and buyers no longer see it. */
export async function retireLottery(scope: StaffScope, id: number): Promise<LotteryRecord> {
  const { row, entries } = await lotteryWithEntries(scope, id);
  if (row.retiredAt !== null) return recordOf(row, entries, scope.now);
  if (entries > 0 || row.status !== 'open') throw new DomainError('lottery_not_editable');
  const before = recordOf(row, entries, scope.now);
  const after = recordOf({ ...row, retiredAt: scope.now }, entries, scope.now);
  await batch(scope.db, {
    // Guarded on nobody having entered meanwhile.
    update: scope.db
      .update(lotteries)
      .set({ retiredAt: scope.now })
      .where(and(eq(lotteries.id, id), sql`NOT EXISTS (SELECT 1 FROM lottery_entries e WHERE e.lottery_id = ${id})`)),
    audit: auditEntry(scope, { action: 'lottery.retire', subjectType: 'lottery', subjectId: id, before, after }),
  });
  return after;
}
