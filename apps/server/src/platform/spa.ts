import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Serves the built web app: real files from dist, and index.html for every other GET that is not
 * under /api, so client-side routes survive a reload. Unknown /api paths answer JSON 404.
 */
export async function registerSpa(app: FastifyInstance, distDir: string) {
  const built = existsSync(path.join(distDir, 'index.html'));
  if (built) {
    // Routes for what dist holds, without `wildcard: false`: that would glob dist at start and hold a
    // route per file (~3 MiB of the idle server). Vite fingerprints everything under assets/, so one
    // route looks those up when asked and lets them be cached forever; the few files at the top (not
    // the build's dotfile stamp) get a route each. Any other path reaches the not-found handler below.
    await app.register(fastifyStatic, { root: distDir, serve: false, index: false });
    await app.register(fastifyStatic, {
      root: path.join(distDir, 'assets'),
      prefix: '/assets/',
      wildcard: true,
      dotfiles: 'ignore',
      index: false,
      decorateReply: false,
      setHeaders: (reply: FastifyReply) =>
        reply.header('cache-control', 'public, max-age=31536000, immutable'),
    });
    for (const entry of readdirSync(distDir, { withFileTypes: true })) {
      if (entry.isFile() && !entry.name.startsWith('.')) {
        app.get(`/${entry.name}`, (_request, reply) => reply.sendFile(entry.name));
      }
    }
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0];
    if (pathname.startsWith('/api/') || pathname === '/api' || request.method !== 'GET') {
      return reply.status(404).send({ message: `Route ${request.method} ${pathname} not found` });
    }
    if (!built) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built yet: run "npm run build" (npm start does it for you).');
    }
    // send's own cache-control (public, max-age=0) would replace no-cache: it is turned off here.
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
}
