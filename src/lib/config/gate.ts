/** The gate: door staff, rotating entry codes and admissions made offline. */

/** Door staff one seller may assign to one session: a large venue's doors, with room to spare. */
export const GATE_STAFF_MAX = 50;
/**
 * The rotating entry code (domain/entry-code.ts): a new code every 15 s, so a screenshot passed on
 * stops admitting within seconds, yet a holder walking up to the door is not rushed; 6 digits keep
 * the QR code small and leave a guesser one chance in a million per try.
 */
export const ENTRY_CODE_STEP_SECONDS = 15;
export const ENTRY_CODE_DIGITS = 6;
/**
 * Steps either side of the checker's clock a code may be from: one covers a phone's clock a few
 * seconds off and a code that changed while the holder walked to the scanner (up to 30 s late),
 * and nothing older, so a screenshot is refused within 30 s of being taken.
 */
export const ENTRY_CODE_SKEW_STEPS = 1;
/**
 * A door device with admissions made offline tries to upload them this often, besides when the
 * browser says it is back online (an event a flaky venue network does not always give).
 */
export const GATE_UPLOAD_RETRY_MS = 15_000;
/** Admissions a door device made offline, uploaded in one request: a busy door's hour without signal. */
export const OFFLINE_ADMISSIONS_MAX = 500;
