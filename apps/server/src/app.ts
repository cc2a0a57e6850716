import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Container } from './container.ts';
import { collectApiDocument } from './lib/api-document.ts';
import { registerAuth } from './lib/auth.ts';
import { registerEarlyAnswers } from './lib/early-answers.ts';
import { registerErrorHandler } from './lib/error-handler.ts';
import { registerGracefulClose } from './lib/graceful-close.ts';
import { registerSecurityHeaders } from './lib/security-headers.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { accountTokensRoutes } from './modules/account-tokens/account-tokens.routes.ts';
import { downloadLinkRoutes } from './modules/downloads/download-links.routes.ts';
import { copyRoutes } from './modules/files/copy.routes.ts';
import { selectionZipRoutes } from './modules/files/selection-zip.routes.ts';
import { filesRoutes } from './modules/files/files.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { billingRoutes, planRoutes, stripeWebhookRoutes } from './modules/billing/billing.routes.ts';
import { localCheckoutRoutes } from './modules/billing/local-checkout.routes.ts';
import { publicSharesRoutes } from './modules/shares/public-shares.routes.ts';
import { publicUploadsRoutes } from './modules/shares/public-uploads.routes.ts';
import { linkUploadsRoutes } from './modules/resumable-uploads/link-uploads.routes.ts';
import { sharesRoutes } from './modules/shares/shares.routes.ts';
import { profileRoutes } from './modules/profile/profile.routes.ts';
import { versionsRoutes } from './modules/versions/versions.routes.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.ts';
import { passkeySignInRoutes, passkeysRoutes } from './modules/passkeys/passkeys.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { accountDataRoutes } from './modules/account-data/account-data.routes.ts';
import { trashRoutes } from './modules/trash/trash.routes.ts';
import { starsRoutes } from './modules/stars/stars.routes.ts';
import { recentRoutes } from './modules/recent/recent.routes.ts';
import { changesRoutes } from './modules/changes/changes.routes.ts';
import { foldersRoutes } from './modules/folders/folders.routes.ts';
import { folderActivityRoutes } from './modules/activity/folder-activity.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { metricsRoutes } from './modules/metrics/metrics.routes.ts';
import { registerRequestMetrics } from './modules/metrics/request-metrics.ts';
import { inlineScriptHashes } from './modules/web/inline-scripts.ts';
import { registerWebApp } from './modules/web/web.routes.ts';
import { thumbnailsRoutes } from './modules/thumbnails/thumbnails.routes.ts';
import { appPasswordsRoutes, deviceSessionRoutes } from './modules/app-passwords/app-passwords.routes.ts';
import { syncRoutes } from './modules/sync/sync.routes.ts';
import { singleSignOnRoutes } from './modules/single-sign-on/single-sign-on.routes.ts';
import { davRoutes } from './modules/dav/dav.routes.ts';
import { resumableUploadsRoutes } from './modules/resumable-uploads/resumable-uploads.routes.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';

const JSON_BODY_LIMIT = 1024 * 1024;
/**
 * A request's headers must all arrive within this. Real clients send them in one go; one
 * trickling them a byte at a time (slowloris) is answered 408 and closed (docs/decisions/0041).
 */
export const HEADERS_TIMEOUT_MS = 20_000;
/** How often the server looks for connections past the headers timeout. */
export const HEADERS_TIMEOUT_CHECK_MS = 5_000;
const SECRET_QUERY_PARAMS = /([?&](?:access|token)=)[^&]*/gi;
/** Paths whose last segment is a capability (signed download links, share tokens). */
const SECRET_PATH_SEGMENTS = /(\/api\/(?:downloads|public\/shares)\/)[^/?]+/g;

/** A request URL fit for the log: no token, in the query or in the path. */
function redactUrl(url: string): string {
  return url.replace(SECRET_PATH_SEGMENTS, '$1[redacted]').replace(SECRET_QUERY_PARAMS, '$1[redacted]');
}

/**
 * TRUST_PROXY for Fastify. A hop count becomes a function of the hop's index, the way
 * proxy-addr counts them: Fastify 5 ignores a bare number (it cannot check the peer), but
 * an operator whose server is reachable only through their proxies asked for exactly this.
 */
function trustProxyOption(trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/** Builds the whole server from a wired container; listening is the caller's business. */
export async function buildApp(container: Container, options: { logStream?: NodeJS.WritableStream } = {}): Promise<FastifyInstance> {
  const { config } = container;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-share-access"]'],
      serializers: {
        req: (request) => ({
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        }),
      },
    },
    bodyLimit: JSON_BODY_LIMIT,
    // A connection idle this long is closed: a stalled upload or a paused download cannot
    // hold an upload slot, a quota reservation, transfer memory or open files forever.
    // Active transfers, however long, are not cut.
    connectionTimeout: config.clientIdleTimeoutMs,
    http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: HEADERS_TIMEOUT_CHECK_MS },
    // Signed download links carry a JWT (~250 characters) as a path segment.
    routerOptions: { maxParamLength: 1024 },
    // A wrong type is a 400, not silently converted; a field outside a closed schema is
    // rejected, not silently dropped.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
    trustProxy: trustProxyOption(config.trustProxy),
    genReqId: () => randomUUID(),
    // Our own ids only: a client-chosen id could forge log lines.
    requestIdHeader: false,
    // Requests arriving while the server closes are answered by registerGracefulClose, in our error shape.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Set on arrival, so replies written outside Fastify's send (downloads) carry it too.
  // Hooks every request passes take a callback: an async one costs a promise and a turn of
  // the microtask queue each (docs/decisions/0034-request-cost.md, addendum).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });

  registerErrorHandler(app);
  registerEarlyAnswers(app);
  registerGracefulClose(app);
  // Counted only when someone may read them (METRICS_TOKEN): no cost per request otherwise.
  if (config.metricsToken !== undefined) registerRequestMetrics(app, container.metrics);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Plus the web app's inline theme script, by its hash.
        scriptSrc: ["'self'", ...inlineScriptHashes(config.webDistDir)],
        // react-hot-toast injects its keyframes as a <style> element.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        // The web app's service worker and manifest (docs/decisions/0065-installable-app.md).
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Self-hosted instances may run on plain HTTP inside a LAN.
        upgradeInsecureRequests: null,
      },
    },
  });
  // Counted by every node together (docs/decisions/0019).
  await app.register(rateLimit, { global: false, store: container.rateLimitStore });
  await app.register(multipart);
  const apiDocument = collectApiDocument(app, { title: 'CloudVault API', version: '1.0.0' });
  registerAuth(app, container.accounts.authenticate);

  await app.register(
    async (api) => {
      await api.register(healthRoutes({ database: container.database.ping, 'file store': container.blobs.ping }));
      await api.register(accountsRoutes(container.accounts));
      await api.register(accountTokensRoutes(container.accountTokens));
      await api.register(singleSignOnRoutes(container.singleSignOn, { publicUrl: config.publicUrl }));
      await api.register(foldersRoutes(container.folders));
      await api.register(folderActivityRoutes(container.folderActivity));
      await api.register(filesRoutes(container));
      await api.register(copyRoutes(container.copies));
      await api.register(selectionZipRoutes(container));
      await api.register(resumableUploadsRoutes(container));
      await api.register(downloadLinkRoutes(container));
      await api.register(trashRoutes(container.trash));
      await api.register(starsRoutes(container.stars));
      await api.register(recentRoutes(container.recent));
      await api.register(changesRoutes(container.changes));
      await api.register(settingsRoutes(container.settings));
      await api.register(sharesRoutes(container.shares));
      await api.register(profileRoutes(container.profile));
      await api.register(versionsRoutes(container));
      await api.register(analyticsRoutes(container.analytics));
      await api.register(twoFactorRoutes(container.twoFactor));
      await api.register(passkeysRoutes(container.passkeys));
      await api.register(passkeySignInRoutes(container.passkeys));
      await api.register(appPasswordsRoutes(container.appPasswords));
      await api.register(deviceSessionRoutes(container.appPasswords));
      await api.register(syncRoutes(container.sync));
      await api.register(notificationsRoutes(container.notifications));
      await api.register(
        accountDataRoutes({
          exports: container.accountExports,
          deletion: container.accountDeletion,
          links: container.links,
          downloads: container.downloads,
        }),
      );
      await api.register(publicSharesRoutes(container));
      await api.register(publicUploadsRoutes(container));
      await api.register(linkUploadsRoutes(container));
      await api.register(thumbnailsRoutes(container));
      await api.register(planRoutes(container.billing));
      await api.register(billingRoutes(container.billing));
      if (container.localPayments) {
        await api.register(
          localCheckoutRoutes({
            local: container.localPayments,
            billing: container.billing,
            records: container.billingRecords,
            plans: container.plans,
            publicUrl: config.publicUrl,
            emailOf: async (userId) => (await container.accounts.profile(userId)).email,
          }),
        );
      } else {
        await api.register(stripeWebhookRoutes({ billing: container.billing, provider: container.payments }));
      }
      await api.register(adminRoutes(container.admin));
      api.get('/docs/json', { schema: { hide: true } }, apiDocument);
    },
    { prefix: '/api' },
  );
  await app.register(metricsRoutes({ metrics: container.metrics, token: config.metricsToken }));
  await app.register(
    davRoutes({
      dav: container.dav.files,
      locks: container.dav.locks,
      downloads: container.downloads,
      authenticateBasic: container.appPasswords.authenticateBasic,
    }),
  );
  await registerWebApp(app, config.webDistDir);
  return app;
}
