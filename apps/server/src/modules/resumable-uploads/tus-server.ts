import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FileItem } from '@cloudvault/contract/files';
import type { Locker } from '@tus/utils';
import type { ServerRequest } from 'srvx';
import type { ResumableStore } from '../../adapters/resumable-store/resumable-store.ts';
import type { ResumableUploadsService } from './resumable-uploads.service.ts';
import { isStoreUnavailable } from '../../adapters/blob-store/store-availability.ts';
import { AppError, storageUnavailable } from '../../lib/errors.ts';
import { hashWrites } from './hashed-writes.ts';
import { readPatchBodiesFromNode } from './node-request-bodies.ts';
import type { ServiceLog } from '../../lib/service-log.ts';

export const UPLOADS_PATH = '/api/uploads';

/** The tus protocol's own refusals, in our error shape: the status stays, the text gets a code. */
const TUS_ERROR_CODES: Record<number, string> = {
  400: 'INVALID_TUS_REQUEST',
  403: 'UPLOAD_REFUSED',
  404: 'UPLOAD_NOT_FOUND',
  409: 'UPLOAD_OFFSET_CONFLICT',
  410: 'UPLOAD_EXPIRED',
  412: 'TUS_RESUMABLE_REQUIRED',
  413: 'FILE_TOO_LARGE',
  415: 'INVALID_CONTENT_TYPE',
  460: 'CHECKSUM_MISMATCH',
};

/**
 * What OPTIONS advertises, the same on every store: exactly what the routes implement. Not
 * creation-defer-length (the quota is reserved from Upload-Length at creation), checksum or
 * concatenation (docs/decisions/0025-resumable-uploads.md).
 */
export const TUS_EXTENSIONS = ['creation', 'creation-with-upload', 'termination', 'expiration'];

/** What the routes tell tus about a request it is handed. */
export interface TusRequestContext {
  userId: string;
  /**
   * The upload the route checked the caller may act on (for a creation, the id reserved):
   * the only id tus uses. Never one read from the URL again, as tus's own parsing runs
   * over the whole URL and can find another id after `?` or `#`.
   */
  uploadId?: string;
  /** Where the upload's URL starts when not at UPLOADS_PATH: an upload through a link lives under the link's path. */
  basePath?: string;
  /** After the upload is listed as a file, before tus answers: a link counts the file and tells its owner. */
  finished?(file: FileItem): Promise<void>;
  /** A link's visitor is told nothing of the owner's drive, not even the new file's id (X-File-Id). */
  hidesFileId?: boolean;
}

/**
 * @tus/server over the configured store (docs/decisions/0025-resumable-uploads.md). The
 * routes decide everything about the caller before tus sees a request; tus speaks the
 * protocol, writes bytes under the cross-node lock and calls back when the last is in.
 */
export function createTusServer(deps: { store: ResumableStore; locker: Locker; uploads: ResumableUploadsService; log: ServiceLog }) {
  const { store } = deps;
  // Per request only, dropped with it: nothing an upload needs lives here between requests.
  const contexts = new WeakMap<IncomingMessage, TusRequestContext>();
  const nodeRequest = (request: Request) => (request as unknown as ServerRequest).runtime?.node?.req as IncomingMessage | undefined;
  const context = (request: Request) => {
    const raw = nodeRequest(request);
    const found = raw && contexts.get(raw);
    if (!found) throw new Error('A tus request reached the handler without its route context');
    return found;
  };
  const uploadIdOf = (request: Request) => {
    const { uploadId } = context(request);
    if (uploadId === undefined) throw new Error('A tus request for an upload reached the handler without the id its route checked');
    return uploadId;
  };
  const finishedMeanwhile = async (request: Request) => {
    const { userId, uploadId } = context(request);
    return uploadId !== undefined && (await deps.uploads.finishedOnceSettled(userId, uploadId));
  };
  // The stores list creation-defer-length too, which a client would then try and be refused.
  store.datastore.extensions = TUS_EXTENSIONS;
  hashWrites(store.datastore, {
    keyOf: store.keyOf,
    states: {
      load: (key) => deps.uploads.hashState(key),
      save: (key, fromBytes, state) => deps.uploads.saveHashState(key, fromBytes, state),
    },
  });
  // @tus/server and srvx load with the first tus request: about 4 MB of memory a server
  // whose clients never resume an upload does not hold (bench/README.md, "Memory").
  const start = async () => {
    const [{ Server }, { NodeRequest, sendNodeResponse }] = await Promise.all([import('@tus/server'), import('srvx/node')]);
    const server = new Server({
      path: UPLOADS_PATH,
      datastore: store.datastore,
      locker: deps.locker,
      relativeLocation: true,
      disableTerminationForFinishedUploads: true,
      exposedHeaders: ['X-File-Id'],
      // Same origin only, as the rest of the API: no CORS headers for any other origin.
      allowedOrigins: () => false,
      namingFunction: (request) => store.storeIdOf(uploadIdOf(request)),
      getFileIdFromRequest: (request) => store.storeIdOf(uploadIdOf(request)),
      generateUrl: (request, { path, id }) => `${context(request).basePath ?? path}/${store.keyOf(id)}`,
      onUploadFinish: async (request, upload) => {
        const file = await deps.uploads.finish(context(request).userId, store.keyOf(upload.id));
        await context(request).finished?.(file);
        return context(request).hidesFileId ? {} : { headers: { 'X-File-Id': file.id } };
      },
      onResponseError: async (request, error) => {
        // A PATCH that waited for the lock while another one finished the upload finds its bytes moved.
        if ('status_code' in error && error.status_code === 404 && (await finishedMeanwhile(request))) {
          return { status_code: 409, body: JSON.stringify({ error: 'The upload is finished already', code: 'UPLOAD_OFFSET_CONFLICT' }) };
        }
        if (error instanceof AppError)
          return { status_code: error.status, body: JSON.stringify({ error: error.message, code: error.code }) };
        if (isStoreUnavailable(error)) {
          // @tus/s3-store's own client, its tries spent: the same answer as the blob store's (docs/decisions/0040-storage-faults.md).
          const unavailable = storageUnavailable();
          deps.log.warn({ err: error }, `answered ${unavailable.status} ${unavailable.code}`);
          return { status_code: unavailable.status, body: JSON.stringify({ error: unavailable.message, code: unavailable.code }) };
        }
        if (!('status_code' in error)) {
          deps.log.error({ err: error }, 'tus upload request failed');
          return {
            status_code: 500,
            body: JSON.stringify({ error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' }),
          };
        }
        return {
          status_code: error.status_code,
          body: JSON.stringify({ error: error.body.trim(), code: TUS_ERROR_CODES[error.status_code] ?? 'UPLOAD_FAILED' }),
        };
      },
    });
    readPatchBodiesFromNode(server, nodeRequest);
    return { server, NodeRequest, sendNodeResponse };
  };
  let started: ReturnType<typeof start> | undefined;
  return {
    /** Hands a request the routes have checked to tus, which answers it on the raw response. */
    async handle(request: IncomingMessage, response: ServerResponse, requestContext: TusRequestContext): Promise<void> {
      // A failed load is tried again by the next request rather than remembered.
      const { server, NodeRequest, sendNodeResponse } = await (started ??= start().catch((error: unknown) => {
        started = undefined;
        throw error;
      }));
      contexts.set(request, requestContext);
      const webRequest = new NodeRequest({ req: request, res: response });
      // PATCH reads the Node request itself (node-request-bodies.ts): srvx must not start a web stream on it.
      if (request.method === 'PATCH') Object.defineProperty(webRequest, 'body', { value: null });
      const answer = await server.handleWeb(webRequest as unknown as Request);
      await sendNodeResponse(response, answer.status >= 400 ? await asJsonError(answer) : answer);
    },
  };
}

/**
 * tus answers a few refusals itself, in plain text, before any hook of ours (a header it
 * finds invalid: 400); those get our `{error, code}` shape as well. Error bodies are a line.
 */
async function asJsonError(answer: Response): Promise<Response> {
  const text = await answer.text();
  const body = isErrorBody(text)
    ? text
    : JSON.stringify({ error: text.trim() || 'The upload request was refused', code: TUS_ERROR_CODES[answer.status] ?? 'UPLOAD_FAILED' });
  const headers = new Headers(answer.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Content-Length', String(Buffer.byteLength(body)));
  return new Response(body, { status: answer.status, headers });
}

function isErrorBody(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && 'code' in parsed;
  } catch {
    return false;
  }
}

export type TusServer = ReturnType<typeof createTusServer>;
