import type { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { isBrokenMultipartError } from './broken-multipart.ts';
import { badRequest } from './errors.ts';

/** How each field a way in accepts before its file is read from its text (a reader may refuse it). */
export type FieldsBeforeFile<Fields> = { [Name in keyof Fields]: (value: string) => Fields[Name] };

/** The file part of a multipart body, as the upload path takes it. */
export interface MultipartFile {
  fileName: string;
  declaredMimetype: string | undefined;
  body: Readable;
}

/**
 * The reading every multipart way in shares: the fields it names (the last of a name counts,
 * any other field is ignored), then exactly one file part (content), then nothing but ignored
 * fields (rest): one of the named fields after the file is refused, as is a second file.
 */
export function multipartParts<Fields extends object>(
  request: FastifyRequest,
  fieldsBeforeFile: FieldsBeforeFile<Fields>,
): { content(): Promise<{ fields: Partial<Fields> } & MultipartFile>; rest(): Promise<void> } {
  const isNamed = (fieldname: string): fieldname is Extract<keyof Fields, string> => Object.hasOwn(fieldsBeforeFile, fieldname);
  let parts: AsyncIterator<Multipart> | undefined;
  const next = async (): Promise<Multipart | undefined> => {
    // Parsing starts with the first part asked for: only once the upload is accepted.
    const limits = { fileSize: Number.POSITIVE_INFINITY, fields: 10, fieldSize: 1024, parts: 20 };
    parts ??= request.parts({ limits })[Symbol.asyncIterator]();
    const { done, value } = await parts.next();
    return done ? undefined : value;
  };
  return {
    async content() {
      const fields: Partial<Fields> = {};
      for (let part = await next(); part; part = await next()) {
        if (part.type === 'field') {
          if (isNamed(part.fieldname)) fields[part.fieldname] = fieldsBeforeFile[part.fieldname](String(part.value));
          continue;
        }
        return {
          fields,
          // Browsers escape a double quote in a multipart filename as %22 (HTML spec).
          // busboy takes an application/octet-stream part without a filename as a file too.
          fileName: (part.filename ?? '').replaceAll('%22', '"'),
          declaredMimetype: part.mimetype,
          body: part.file,
        };
      }
      throw badRequest('The upload has no file part', 'NO_FILE');
    },
    async rest() {
      for (let part = await next(); part; part = await next()) {
        if (part.type === 'field') {
          if (isNamed(part.fieldname)) throw badRequest(`${part.fieldname} must come before the file`, 'FIELD_AFTER_FILE');
          continue;
        }
        part.file.resume();
        throw badRequest('Send one file per upload', 'MORE_THAN_ONE_FILE');
      }
    },
  };
}

/** How a multipart way in answers a body that broke off (uploads.service.ts CutOffBody). */
export function multipartCutOff(request: FastifyRequest) {
  return {
    // Node reports a client gone mid-upload as ECONNRESET, busboy as a body that ended early.
    clientGone: () => request.raw.aborted || request.raw.socket.destroyed,
    isMalformed: isBrokenMultipartError,
    answer: () => badRequest('The upload is not a valid multipart/form-data body', 'MALFORMED_MULTIPART'),
    log: request.log,
  };
}
