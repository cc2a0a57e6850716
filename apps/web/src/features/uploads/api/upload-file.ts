import type { FileItem } from '@cloudvault/contract/files';
import { apiUrl, getToken, reportUnauthorized } from '../../../lib/api-client';
import { UploadFailure, type UploadTransport } from '../upload-queue';

/**
 * POST /api/files/upload over XMLHttpRequest, for its upload progress events. The File
 * goes into FormData as it is: the browser streams it from disk, it is never read into
 * memory. The server wants `folderId` and `conflict` before the file part.
 */
export const uploadFile: UploadTransport<FileItem> = (file, folderId, { onProgress, signal, conflict }) =>
  new Promise<FileItem>((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('Upload cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl('/files/upload'));
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);

    xhr.upload.onprogress = (event) => {
      // `loaded` counts the multipart envelope too; scale it to the file's own bytes.
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * file.size));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      if (xhr.status === 201 && typeof record.file === 'object' && record.file !== null) {
        resolve(record.file as FileItem);
        return;
      }
      if (xhr.status === 401) reportUnauthorized(token);
      const serverMessage = typeof record.error === 'string' && record.error ? record.error : undefined;
      reject(new UploadFailure(xhr.status, serverMessage, typeof record.code === 'string' ? record.code : undefined));
    };
    xhr.onerror = () => reject(new UploadFailure(0, undefined));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });

    const form = new FormData();
    if (folderId !== null) form.append('folderId', folderId);
    if (conflict) form.append('conflict', conflict);
    form.append('file', file, file.name);
    xhr.send(form);
  });
