/**
 * The invitation programme: each user's code and share link, registering with a friend's code (or
 * accepting one later, while still a new user), and the invitee coupons it grants at once. The
 * inviter's reward waits for the friend's first paid order (services/orders/lifecycle.ts, applyOrderEvent),
 * so throwaway sign-ups earn nothing.
 *
 * An account is invited at most once: `invitations.invitee_id` is unique, and the invitation, the
 * `users.invited_by` mark and the grant are one D1 batch (atomic) whose grant is guarded
 * (services/orders/coupons.ts), so retries and races grant nothing twice.
 */
import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { coupons, invitations, users } from '../../db/schema.ts';
import { foldText, percentOff } from '../../domain/coupons.ts';
import { DomainError } from '../../domain/errors.ts';
import { invitationRefusal, normalizeInviteCode } from '../../domain/invitations.ts';
import { localizedName } from '../../i18n/locales.ts';
import { pathTo } from '../../routes.ts';
import { couponAmounts, grantInviteeCoupons, grantNewUserGift } from '../orders/coupons.ts';
import type { FormattedMoney } from '../../domain/money.ts';
import { hasPaidOrder } from '../orders/queries.ts';
import type { RequestScope, UserScope } from '../platform/scope.ts';
import { rawBatch } from '../../data/batch.ts';

export interface Inviter {
  id: number;
  nickname: string;
  invitedBy: number | null;
}

/** The owner of an invite code; an unknown or malformed code is a 400 naming the field. */
export async function inviterByCode(db: Db, rawCode: string): Promise<Inviter> {
  const code = normalizeInviteCode(rawCode);
  const [row] = code
    ? await db
        .select({ id: users.id, nickname: users.nickname, invitedBy: users.invitedBy })
        .from(users)
        .where(eq(users.inviteCode, code))
        .limit(1)
    : [];
  if (!row) throw new DomainError('invite_code_unknown', {}, 'inviteCode');
  return row;
}

/** The coupons a friend registering with an invite code gets now, in the scope's language and currency: for the share link's preview. */
export async function inviteeRewards(scope: RequestScope): Promise<InvitationReward[]> {
  const rows = await scope.db.select().from(coupons).where(eq(coupons.purpose, 'invitee')).orderBy(asc(coupons.id));
  return rewardsOf(rows, 'invitee', scope);
}

/** The batch that records an invitation (never of oneself, never a second one) and grants the invitee coupons. */
function invitationStatements(db: Db, inviteeId: number, inviterId: number, now: number): D1PreparedStatement[] {
  const d1 = db.$client;
  return [
    d1
      .prepare(`INSERT INTO invitations (inviter_id, invitee_id, created_at) SELECT ?1, ?2, ?3 WHERE ?1 <> ?2
      ON CONFLICT (invitee_id) DO NOTHING`)
      .bind(inviterId, inviteeId, now),
    d1
      .prepare(`UPDATE users SET invited_by = (SELECT inviter_id FROM invitations WHERE invitee_id = ?1)
      WHERE id = ?1 AND invited_by IS NULL`)
      .bind(inviteeId),
    grantInviteeCoupons(db, inviteeId, now),
  ];
}

/** What a new account receives: the new-user gift and, when it registered with a friend's code, the invitation. */
export async function welcomeNewUser(db: Db, userId: number, inviterId: number | null, now: number): Promise<void> {
  await rawBatch(db.$client, {
    gift: grantNewUserGift(db, userId, now),
    invitation: inviterId === null ? [] : invitationStatements(db, userId, inviterId, now),
  });
}

/**
 * An existing account accepts a friend's code: refused for one's own code, a second invitation, an
 * account that has bought already, or a friend one invited. Answers the inviter's nickname.
 */
export async function acceptInvitation(scope: UserScope, rawCode: string): Promise<{ inviterNickname: string }> {
  const { db, userId, now } = scope;
  const inviter = await inviterByCode(db, rawCode);
  const [[me], paid] = await Promise.all([
    db.select({ id: users.id, invitedBy: users.invitedBy }).from(users).where(eq(users.id, userId)),
    hasPaidOrder(db, userId),
  ]);
  if (!me) throw new DomainError('unauthorized');
  const refusal = invitationRefusal({ ...me, hasPaidOrder: paid }, inviter);
  if (refusal) throw new DomainError(refusal, {}, refusal === 'invite_self' ? 'inviteCode' : undefined);
  await rawBatch(db.$client, { invitation: invitationStatements(db, userId, inviter.id, now) });
  // A concurrent acceptance may have won: the unique invitee row says whose invitation counts.
  const [recorded] = await db.select({ inviterId: invitations.inviterId }).from(invitations).where(eq(invitations.inviteeId, userId));
  if (recorded?.inviterId !== inviter.id) throw new DomainError('invite_already_accepted');
  return { inviterNickname: inviter.nickname };
}

// ---------------------------------------------------------------------------------------------
// My Invitation Code

export interface InvitationReward {
  name: string;
  fold: string | null;
  percentOff: number | null;
  amount: FormattedMoney | null;
  amountInUserCurrency: FormattedMoney | null;
  minSpend: FormattedMoney | null;
  minSpendInUserCurrency: FormattedMoney | null;
}

export interface InvitationView {
  inviteCode: string;
  /** The login page carrying the code through registration; unprefixed, so friends get their own language. */
  sharePath: string;
  invitedBy: string | null;
  /** Whether this account may still accept a friend's code (not invited yet, nothing bought yet). */
  canAccept: boolean;
  /** Friends who joined, and where the inviter's reward for each stands. */
  friends: { nickname: string; joinedAt: number; reward: 'waiting' | 'granted' | 'capped' }[];
  rewards: { invitee: InvitationReward[]; inviter: InvitationReward[] };
}

/** The share path of a code: `/login?inviteCode=CODE`. */
export function sharePathOf(inviteCode: string): string {
  return `${pathTo('loginPage')}?inviteCode=${encodeURIComponent(inviteCode)}`;
}

/** What the coupons of one side (`purpose`) valid now give, in the scope's language and currency. */
function rewardsOf(rows: (typeof coupons.$inferSelect)[], purpose: 'invitee' | 'inviter', scope: RequestScope): InvitationReward[] {
  const { ctx, currencies: table, now } = scope;
  return rows
    .filter((coupon) => coupon.purpose === purpose && coupon.validFrom <= now && coupon.validTo > now)
    .map((coupon) => {
      const rate = coupon.kind === 'rate' && coupon.foldTenths !== null ? coupon.foldTenths : null;
      return {
        name: localizedName(coupon, ctx.locale),
        fold: rate === null ? null : foldText(rate),
        percentOff: rate === null ? null : percentOff(rate),
        ...couponAmounts(coupon, ctx.currency, ctx.locale, table),
      };
    });
}

/** The My Invitation Code page's data: the code, the link, who joined, and what both sides get. */
export async function invitationOf(scope: UserScope): Promise<InvitationView> {
  const { db, userId } = scope;
  const [[me], friends, rewardCoupons, paid] = await Promise.all([
    db.select({ inviteCode: users.inviteCode, invitedBy: users.invitedBy }).from(users).where(eq(users.id, userId)),
    db
      .select({ nickname: users.nickname, joinedAt: invitations.createdAt, reward: invitations.rewardState })
      .from(invitations)
      .innerJoin(users, eq(users.id, invitations.inviteeId))
      .where(eq(invitations.inviterId, userId))
      .orderBy(desc(invitations.createdAt), desc(invitations.id)),
    db
      .select()
      .from(coupons)
      .where(inArray(coupons.purpose, ['invitee', 'inviter']))
      .orderBy(asc(coupons.id)),
    hasPaidOrder(db, userId),
  ]);
  if (!me) throw new DomainError('unauthorized');
  const [inviter] =
    me.invitedBy === null ? [] : await db.select({ nickname: users.nickname }).from(users).where(eq(users.id, me.invitedBy));
  return {
    inviteCode: me.inviteCode,
    sharePath: sharePathOf(me.inviteCode),
    invitedBy: inviter?.nickname ?? null,
    canAccept: me.invitedBy === null && !paid,
    friends,
    rewards: { invitee: rewardsOf(rewardCoupons, 'invitee', scope), inviter: rewardsOf(rewardCoupons, 'inviter', scope) },
  };
}
