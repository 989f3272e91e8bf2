/**
 * Jump associations, run after commit: for each new record of an item with enabled jumps,
 * every jump whose conditions match (higher priority first) writes its mapped values into its
 * target item through the same pipeline with source 'jump'. Each hop adds one to the depth;
 * the pipeline stops running jumps at MAX_JUMP_DEPTH, so a loop A → B → A ends.
 */
import { applyMapping, matchesConditions, orderJumps } from '@platform/domain';
import type { IngestPipeline, IngestRecord, WriteRequest } from './pipeline';
import type { NewRecord } from './store';

export async function runJumps(
  pipeline: IngestPipeline,
  request: Omit<WriteRequest, 'records'>,
  byItem: Map<number, Array<{ row: NewRecord; id: number }>>,
  depth: number,
): Promise<void> {
  for (const [itemId, list] of byItem) {
    const enabled = await pipeline.jumpsOf(itemId);
    if (enabled.length === 0) continue;
    const jumps = orderJumps(enabled);
    // one write per jump and target, in priority order, so targets see the order of the rules
    for (const jump of jumps) {
      const records: IngestRecord[] = [];
      for (const { row } of list) {
        if (!matchesConditions(jump.conditions, row.values)) continue;
        // the copy keeps the source record's time: it describes the same moment
        records.push({
          itemId: jump.targetItemId,
          ts: row.ts,
          values: applyMapping(jump.mapping, row.values),
        });
      }
      if (records.length === 0) continue;
      try {
        await pipeline.write({
          companyId: request.companyId,
          userId: request.userId,
          source: 'jump',
          records,
          depth: depth + 1,
        });
      } catch (error) {
        // a jump whose output the target refuses (fields changed since) is skipped, not fatal
        pipeline.logJumpFailure(jump.id, error);
      }
    }
  }
}
