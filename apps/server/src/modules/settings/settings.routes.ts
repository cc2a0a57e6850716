import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import { Settings, SettingsResponse } from '@cloudvault/contract/settings';
import { caller } from '../../lib/auth.ts';
import type { SettingsService } from './settings.service.ts';

export function settingsRoutes(settings: SettingsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get('/user/settings', { schema: { tags: ['settings'], response: { 200: SettingsResponse, 401: ErrorBody } } }, async (request) => ({
      settings: await settings.get(caller(request).userId),
    }));

    app.put(
      '/user/settings',
      { schema: { tags: ['settings'], body: Settings, response: { 200: SettingsResponse, 400: ErrorBody, 401: ErrorBody } } },
      async (request) => ({ settings: await settings.update(caller(request).userId, request.body) }),
    );
  };
}
