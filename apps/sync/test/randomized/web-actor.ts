import type { Tree } from './trees.ts';

/** The drive's tree as the API lists it, with the ids the web actor's changes need. */
export interface ServerView {
  tree: Tree;
  folderIds: Map<string, string>;
  fileIds: Map<string, string>;
}

/** An answer of the API: the status and the parsed JSON body (or the text). */
export interface WebAnswer {
  status: number;
  body: unknown;
}

/** The third actor: a person using the web app, talking to the server's API directly (not through the cutting proxy). */
export interface WebActor {
  /** The whole live tree, walked folder by folder through the listings the web app uses. */
  view(): Promise<ServerView>;
  upload(folderId: string | null, name: string, bytes: Uint8Array, conflict: 'fail' | 'replace'): Promise<WebAnswer>;
  createFolder(name: string, parentId: string | null): Promise<WebAnswer>;
  renameOrMoveFile(id: string, change: { name?: string; folderId?: string | null }): Promise<WebAnswer>;
  renameOrMoveFolder(id: string, change: { name?: string; parentId?: string | null }): Promise<WebAnswer>;
  deleteFile(id: string): Promise<WebAnswer>;
  deleteFolder(id: string): Promise<WebAnswer>;
}

/** The web actor of the user whose session token is `token`. */
export function webActor(serverUrl: string, token: string): WebActor {
  const call = async (method: string, route: string, body?: unknown): Promise<WebAnswer> => {
    const response = await fetch(`${serverUrl}/api${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text };
  };
  const listed = async <T>(route: string, key: string): Promise<T[]> => {
    const answer = await call('GET', route);
    if (answer.status !== 200) throw new Error(`GET ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return (answer.body as Record<string, T[]>)[key] as T[];
  };
  return {
    view: async () => {
      const view: ServerView = { tree: { folders: new Set(), files: new Map() }, folderIds: new Map(), fileIds: new Map() };
      const walk = async (folderId: string | null, prefix: string): Promise<void> => {
        const query = folderId ?? 'null';
        const files = await listed<{ id: string; originalName: string; contentHash: string }>(`/files?folderId=${query}`, 'files');
        for (const file of files) {
          view.tree.files.set(`${prefix}${file.originalName}`, file.contentHash);
          view.fileIds.set(`${prefix}${file.originalName}`, file.id);
        }
        const folders = await listed<{ id: string; name: string }>(`/user/folders?parentId=${query}`, 'folders');
        for (const folder of folders) {
          view.tree.folders.add(`${prefix}${folder.name}`);
          view.folderIds.set(`${prefix}${folder.name}`, folder.id);
          await walk(folder.id, `${prefix}${folder.name}/`);
        }
      };
      await walk(null, '');
      return view;
    },
    upload: async (folderId, name, bytes, conflict) => {
      const form = new FormData();
      // The API reads its fields before the file part.
      if (folderId) form.append('folderId', folderId);
      form.append('conflict', conflict);
      form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
      const response = await fetch(`${serverUrl}/api/files/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    createFolder: (name, parentId) => call('POST', '/user/folders', { name, parentId }),
    renameOrMoveFile: (id, change) => call('PATCH', `/files/${id}`, change),
    renameOrMoveFolder: (id, change) => call('PATCH', `/user/folders/${id}`, change),
    deleteFile: (id) => call('DELETE', `/files/${id}`),
    deleteFolder: (id) => call('DELETE', `/user/folders/${id}`),
  };
}
