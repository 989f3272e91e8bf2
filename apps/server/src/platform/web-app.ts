/**
 * The built web app (apps/web/dist), served by the API's own server:
 * - the brotli or gzip copy made at build time when the browser accepts it (no compression
 *   per request);
 * - files under assets/ carry a content hash in their names: cached for a year, immutable;
 * - everything else (index.html, the favicon) is revalidated on each visit, so a new build is
 *   picked up at once while unchanged assets are never fetched again.
 */
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

export function cacheControlFor(filePath: string): string {
  const parts = filePath.split(path.sep);
  return parts[parts.length - 2] === 'assets' ? IMMUTABLE : REVALIDATE;
}

export async function serveWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', cacheControlFor(filePath));
    },
  });
}
