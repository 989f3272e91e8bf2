/**
 * Test fixtures of boards and carousels: rows made straight in the tables (no route, no check).
 * Not imported by production code.
 */
import { type BoardBody, emptyBoard } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../test/helper';
import { cabinNodes } from '../cabin/tables';
import { boardPlays, boards } from './tables';

let counter = 0;

export async function makeBoard(
  t: TestApp,
  companyId: number,
  opts: {
    name?: string;
    body?: BoardBody;
    parentId?: number | null;
    type?: 'dashboard' | 'dashboardTemplate';
  } = {},
): Promise<{ nodeId: number; boardId: number }> {
  counter += 1;
  return t.db.transaction(async (tx) => {
    const [node] = await tx
      .insert(cabinNodes)
      .values({
        companyId,
        parentId: opts.parentId ?? null,
        type: opts.type ?? 'dashboard',
        name: opts.name ?? `board ${counter}`,
      })
      .returning({ id: cabinNodes.id });
    const [board] = await tx
      .insert(boards)
      .values({ companyId, nodeId: node!.id, body: { ...(opts.body ?? emptyBoard()) } })
      .returning({ id: boards.id });
    await tx.update(cabinNodes).set({ refId: board!.id }).where(eq(cabinNodes.id, node!.id));
    return { nodeId: node!.id, boardId: board!.id };
  });
}

export async function boardRow(t: TestApp, nodeId: number) {
  const [row] = await t.db.select().from(boards).where(eq(boards.nodeId, nodeId));
  return row!;
}

export async function makePlay(
  t: TestApp,
  companyId: number,
  entries: Array<{ boardId: number; seconds: number }>,
  name = 'carousel',
): Promise<number> {
  const [row] = await t.db
    .insert(boardPlays)
    .values({ companyId, name, entries })
    .returning({ id: boardPlays.id });
  return row!.id;
}

export async function playRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(boardPlays).where(eq(boardPlays.id, id));
  return row;
}

/** A grid board with one text widget holding `text` and one number card on `itemId`. */
export function sampleBody(text: string, itemId: number | null = null): BoardBody {
  return {
    ...emptyBoard('grid'),
    widgets: [
      {
        id: 'txt',
        type: 'text',
        x: 0,
        y: 0,
        w: 6,
        h: 2,
        z: 1,
        locked: false,
        hidden: false,
        config: { text, fontSize: 18, color: '', align: 'left' },
      },
      {
        id: 'num',
        type: 'number',
        x: 6,
        y: 0,
        w: 6,
        h: 4,
        z: 2,
        locked: false,
        hidden: false,
        config: { title: 'T', itemId, field: 'f1', staleMinutes: 10, fontSize: 32 },
      },
    ],
  };
}
