import { describe, expect, it } from 'vitest';
import type { Folder } from '@cloudvault/contract/folders';
import { arrivalFocusKey } from './arrival-focus';
import { folderItem, type DriveItem } from './items';

const folder = (id: string, parentId: string | null): Folder => ({
  id,
  name: id,
  parentId,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

const projects = folder('projects', null);
const drafts = folder('drafts', 'projects');
const final = folder('final', 'drafts');
const photos = folder('photos', null);
const home: DriveItem[] = [folderItem(photos), folderItem(projects)];
const inProjects: DriveItem[] = [folderItem(drafts)];

describe('focus on arriving in a folder', () => {
  it('going up, lands on the folder just left', () => {
    expect(arrivalFocusKey(home, null, [projects])).toBe('folder:projects');
    expect(arrivalFocusKey(inProjects, 'projects', [projects, drafts])).toBe('folder:drafts');
  });

  it('going up several levels (a breadcrumb), lands on the ancestor of the folder left that is shown here', () => {
    expect(arrivalFocusKey(home, null, [projects, drafts, final])).toBe('folder:projects');
    expect(arrivalFocusKey(inProjects, 'projects', [projects, drafts, final])).toBe('folder:drafts');
  });

  it('going down or sideways, lands on the first item; an empty folder has none', () => {
    expect(arrivalFocusKey(inProjects, 'projects', [])).toBe('folder:drafts');
    expect(arrivalFocusKey(home, null, [])).toBe('folder:photos');
    expect(arrivalFocusKey(inProjects, 'projects', [photos])).toBe('folder:drafts');
    expect(arrivalFocusKey([], 'drafts', [projects])).toBeNull();
  });

  it('when the folder left is no longer here (moved or deleted meanwhile), lands on the first item', () => {
    expect(arrivalFocusKey([folderItem(photos)], null, [projects])).toBe('folder:photos');
  });
});
