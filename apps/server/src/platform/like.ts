/** A keyword as an ILIKE pattern matching it anywhere: its LIKE wildcards match themselves. */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
