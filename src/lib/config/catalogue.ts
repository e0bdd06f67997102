/** Bounds of what the console writes into the catalogue (domain/catalogue-drafts.ts). */

/** A name of a venue, artist, category, activity or tier, in any script. */
export const CATALOGUE_NAME_MAX_LENGTH = 200;
/** An address line, a map link, a poster path. */
export const CATALOGUE_LINE_MAX_LENGTH = 500;
/** An activity's description or buying notes, in one script. */
export const CATALOGUE_TEXT_MAX_LENGTH = 10_000;
/** The most tickets one account may have of one session, as an editor may set it (ACCOUNT_TICKET_CAP is the default). */
export const SESSION_TICKET_CAP_MAX = 50;
/** The most tickets of one tier in one order, as an activity may allow it. */
export const ORDER_TICKET_MAX = 20;
/** The most tickets one tier may have. */
export const TIER_QUOTA_MAX = 1_000_000;
