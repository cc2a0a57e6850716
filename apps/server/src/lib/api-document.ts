import Fastify, { type FastifyInstance, type HTTPMethods, type RouteOptions } from 'fastify';

/**
 * The OpenAPI document of the routes `app` registers from now on, built on its first
 * request. @fastify/swagger, with the YAML and JSON Schema libraries it loads, held 3-4 MB
 * of memory from start-up on for a document few servers are ever asked for
 * (docs/decisions/0035-server-memory.md): the routes are noted as they are added, as the
 * plugin itself does, and the first request replays their schemas, without handlers or
 * validation, into a throwaway Fastify instance that carries the plugin.
 */
export function collectApiDocument(app: FastifyInstance, info: { title: string; version: string }): () => Promise<unknown> {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  let document: Promise<unknown> | undefined;
  return () => {
    document ??= buildDocument(routes, info).catch((error: unknown) => {
      document = undefined;
      throw error;
    });
    return document;
  };
}

async function buildDocument(routes: RouteOptions[], info: { title: string; version: string }): Promise<unknown> {
  const { default: swagger } = await import('@fastify/swagger');
  const replay = Fastify();
  replay.setValidatorCompiler(() => () => true);
  replay.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await replay.register(swagger, { openapi: { info } });
  for (const route of routes) {
    for (const method of [route.method].flat()) if (!replay.supportedMethods.includes(method)) replay.addHttpMethod(method);
    replay.route({
      method: route.method as HTTPMethods | HTTPMethods[],
      url: route.url,
      ...(route.schema ? { schema: route.schema } : {}),
      ...(route.config ? { config: route.config } : {}),
      ...(route.constraints ? { constraints: route.constraints } : {}),
      // The HEAD routes Fastify added were noted as routes of their own.
      exposeHeadRoute: false,
      handler: async () => null,
    });
  }
  await replay.ready();
  try {
    return replay.swagger();
  } finally {
    await replay.close();
  }
}
