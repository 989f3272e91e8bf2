/**
 * Carousels (menu code sd_board_play, issue 11 point 4): an ordered list of boards, each shown
 * for its own number of seconds, played full screen. The player's rotation is pure here: which
 * board comes next when some failed to load (skipped, and tried again after a while).
 */

export interface PlayEntry {
  /** the board's cabin node id */
  boardId: number;
  seconds: number;
}

export const PLAY_LIMITS = { entries: 50, secondsMin: 5, secondsMax: 3600, name: 25 } as const;
/** a board that failed to load is skipped for this long before it is tried again */
export const PLAY_RETRY_MS = 60_000;

export type PlayCheck = { ok: true; entries: PlayEntry[] } | { ok: false; field: string; reason: string };

export function checkPlayEntries(raw: unknown): PlayCheck {
  if (!Array.isArray(raw)) return { ok: false, field: 'entries', reason: 'list' };
  if (raw.length === 0) return { ok: false, field: 'entries', reason: 'required' };
  if (raw.length > PLAY_LIMITS.entries)
    return { ok: false, field: 'entries', reason: `at most ${PLAY_LIMITS.entries}` };
  const entries: PlayEntry[] = [];
  for (const [i, e] of raw.entries()) {
    const boardId = (e as Partial<PlayEntry> | null)?.boardId as number;
    const seconds = (e as Partial<PlayEntry> | null)?.seconds as number;
    if (!Number.isInteger(boardId) || boardId < 1 || boardId > 2_147_483_647)
      return { ok: false, field: `entries[${i}].boardId`, reason: 'id' };
    if (!Number.isInteger(seconds) || seconds < PLAY_LIMITS.secondsMin || seconds > PLAY_LIMITS.secondsMax)
      return {
        ok: false,
        field: `entries[${i}].seconds`,
        reason: `range ${PLAY_LIMITS.secondsMin}..${PLAY_LIMITS.secondsMax}`,
      };
    entries.push({ boardId, seconds });
  }
  return { ok: true, entries };
}

/**
 * The index to show after `current`: the next entry in order whose board has not failed within
 * PLAY_RETRY_MS before `now` (`failedAt`: board id → when it last failed). When every board
 * failed recently, the next one in order all the same (the player keeps trying; it never stops).
 */
export function nextPlayIndex(
  entries: readonly PlayEntry[],
  current: number,
  failedAt: ReadonlyMap<number, number>,
  now: number,
): number {
  const n = entries.length;
  if (n === 0) return -1;
  for (let step = 1; step <= n; step++) {
    const i = (((current + step) % n) + n) % n;
    const failed = failedAt.get(entries[i]!.boardId);
    if (failed === undefined || now - failed >= PLAY_RETRY_MS) return i;
  }
  return (((current + 1) % n) + n) % n;
}

/** Seconds left before the next board, for the countdown (never below 0). */
export function countdown(startedAt: number, seconds: number, now: number): number {
  return Math.max(0, Math.ceil(seconds - (now - startedAt) / 1000));
}
