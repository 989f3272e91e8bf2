/**
 * Where the server's time goes: a summary of a V8 .cpuprofile (node --cpu-prof) by self time,
 * per package (node_modules/<pkg>, node: internals, the project's own source) and per function.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  byPackage: Array<{ name: string; share: number }>;
  byFunction: Array<{ name: string; share: number }>;
}

function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return url.split('/')[0]!;
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  const inRepo = /\/(apps\/[^/]+\/src\/[^/]+(?:\/[^/]+)?|packages\/[^/]+\/src|bench)\//.exec(url);
  return inRepo ? inRepo[1]! : url;
}

export function summarizeProfile(file: string, top = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  let total = 0;
  const pkg = new Map<string, number>();
  const fn = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    total += us;
    const p = packageOf(url, functionName);
    pkg.set(p, (pkg.get(p) ?? 0) + us);
    const f = `${functionName || '(anonymous)'} ${p}${url ? `:${lineNumber + 1}` : ''}`;
    fn.set(f, (fn.get(f) ?? 0) + us);
  }
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, share: total ? us / total : 0 }));
  return { file, totalMs: total / 1000, byPackage: rank(pkg), byFunction: rank(fn) };
}
