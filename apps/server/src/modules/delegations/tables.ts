import { sql } from 'drizzle-orm';
import { integer, pgTable, timestamp, unique } from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { users } from '../users/tables';

/** The delegator's alerts are also delivered to the delegate, inside one company. */
export const alertDelegations = pgTable(
  'alert_delegations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    delegatorId: integer('delegator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delegateId: integer('delegate_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('alert_delegations_pair').on(t.companyId, t.delegatorId, t.delegateId)],
);
