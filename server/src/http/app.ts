import Koa from 'koa';
import Router from '@koa/router';
import type { Logger } from '../log.ts';
import type { Services } from '../services/index.ts';
import { errorEnvelope } from './middleware/error-envelope.ts';
import { requestLog } from './middleware/request-log.ts';
import { familyFirst } from './middleware/family-first.ts';
import { requireHost } from './middleware/require-host.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { mountRoutes } from './mount.ts';
import { tusHeaders } from '../uploads/tus-protocol.ts';
import { ROUTES } from './routes.ts';
import { healthRoute } from './routes/server.ts';
import { API_PREFIX } from './paths.ts';
import { requireKnownHost, type HostAllowList } from './host-allow-list.ts';
import { webApp } from './static.ts';
import { davFront } from './dav/front.ts';
import { davErrorFormat } from './dav/errors.ts';
import { believeTrustedProxies, TrustedProxies } from './trusted-proxies.ts';
import { httpsUpgrade } from './middleware/https-upgrade.ts';
import { DownloadSlots } from './download-slots.ts';
import { closeStalledResponses } from './stalled-responses.ts';
import { DEFAULT_CONFIG, type ServerConfig } from '../config.ts';

export function createApp(
  services: Services,
  log: Logger,
  jsonLimit: number,
  hosts: HostAllowList,
  webDir: string | null = null,
  trusted: TrustedProxies = new TrustedProxies([]),
  downloads: ServerConfig['downloads'] = DEFAULT_CONFIG.downloads,
): Koa {
  const app = new Koa();
  // Koa would believe X-Forwarded-* from anyone: only TRUSTED_PROXIES are believed (trusted-proxies.ts).
  app.proxy = false;
  app.silent = true;

  const slots = new DownloadSlots(downloads);
  const api = new Router({ prefix: API_PREFIX });
  mountRoutes(api, ROUTES, services, jsonLimit, slots);

  // Liveness probes conventionally live at the root as well.
  const root = new Router();
  mountRoutes(root, [healthRoute], services, jsonLimit, slots);

  // First, so that everything after it (the envelope's log, the Host check, rate limits) sees the real client.
  app.use(believeTrustedProxies(trusted));
  // Outermost, so it logs the status the envelope finally sent (inside it, every error read as 404).
  app.use(requestLog(log));
  app.use(errorEnvelope(log, (error) => services.storage.noteFailure(error), davErrorFormat));
  // Around every route and the web app: whatever answers with a stream is watched while it is sent.
  app.use(closeStalledResponses(downloads.stallMs, log));
  app.use(familyFirst(services.familyFirst));
  app.use(securityHeaders());
  app.use(requireHost());
  app.use(tusHeaders());
  app.use(requireKnownHost(hosts));
  app.use(httpsUpgrade(services.homeHttps));
  // WebDAV (issue 34): its own methods and Basic sign-in, ahead of the API's router.
  app.use(davFront(services, slots));
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: true }));
  app.use(root.routes());
  app.use(root.allowedMethods({ throw: true }));
  app.use(webApp(webDir));
  return app;
}
