/**
 * The ceiling of a JSON route: bare Fastify, no hooks, no plugins, answering GET /listing
 * with the JSON read from LISTING_FILE at start-up, kept in memory as an object and
 * serialized per request, as a route returning data it already holds would.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const { PORT, LISTING_FILE } = process.env;
if (!PORT || !LISTING_FILE) throw new Error('PORT and LISTING_FILE are required');

const listing: unknown = JSON.parse(readFileSync(LISTING_FILE, 'utf8'));
const app = Fastify({ logger: false });
app.get('/listing', async () => listing);
await app.listen({ port: Number(PORT), host: '127.0.0.1' });
