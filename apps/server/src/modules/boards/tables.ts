import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, timestamp, varchar } from 'drizzle-orm/pg-core';
import { cabinNodes } from '../cabin/tables';
import { companies } from '../companies/tables';
import { users } from '../users/tables';

/**
 * The body of a board (cabin node types `dashboard` and `dashboardTemplate`): one row per node,
 * deleted with it. `body` is a BoardBody of packages/domain (boards/board.ts), checked on every
 * save; `version` grows by one on each save, and a save names the version it was based on, so
 * a stale save is refused instead of overwriting someone else's work.
 */
export const boards = pgTable('boards', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  nodeId: integer('node_id')
    .notNull()
    .unique()
    .references(() => cabinNodes.id, { onDelete: 'cascade' }),
  body: jsonb('body').$type<Record<string, unknown>>().notNull(),
  version: integer('version').notNull().default(1),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/**
 * What a user last did with a board: the widget they last selected in the designer (spec
 * point 3, "selected chart in board: stored") and when they last opened it (the home page's
 * "boards I opened last"). One row per user and board, so it never grows with use.
 */
export const boardUserState = pgTable(
  'board_user_state',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nodeId: integer('node_id')
      .notNull()
      .references(() => cabinNodes.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    selectedWidget: varchar('selected_widget', { length: 32 }),
    openedAt: timestamp('opened_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.nodeId] }),
    index('board_user_state_opened').on(t.userId, t.companyId, t.openedAt),
  ],
);

/**
 * Carousels (menu code sd_board_play): an ordered list of boards, each with its seconds on
 * screen (`entries`: PlayEntry[] of packages/domain). Boards are referenced by node id; a board
 * deleted later is skipped by the player and shown as missing in the editor.
 */
export const boardPlays = pgTable(
  'board_plays',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 25 }).notNull(),
    entries: jsonb('entries').$type<Array<{ boardId: number; seconds: number }>>().notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('board_plays_company').on(t.companyId)],
);
