import type { SelectionZipLinkResponse } from '@cloudvault/contract/selection-zip';
import { api, apiUrl } from '../../../lib/api-client';
import type { DriveItem } from '../items';

/**
 * Saves several items as one zip through the browser's download manager (streamed to disk).
 * The server checks the selection and signs it into a token (POST /api/downloads/zip-link),
 * which a plain form posts to /api/downloads: a selection of many items makes a token too
 * long for an address (docs/decisions/0048-selection-zips.md). An attachment does not replace
 * the page; the token was checked a moment before, so an error page in its place is as rare
 * as an item deleted in between. Rejects with ApiError when the server refuses the selection
 * (404 an item gone, 400…).
 */
export async function downloadSelection(items: readonly DriveItem[]): Promise<void> {
  const { token } = await api.post<SelectionZipLinkResponse>('/downloads/zip-link', {
    files: items.filter((item) => item.kind === 'file').map((item) => item.id),
    folders: items.filter((item) => item.kind === 'folder').map((item) => item.id),
  });
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = apiUrl('/downloads');
  form.hidden = true;
  const field = document.createElement('input');
  field.type = 'hidden';
  field.name = 'token';
  field.value = token;
  form.appendChild(field);
  document.body.appendChild(form);
  form.submit();
  form.remove();
}
