/** Query keys of files' version histories. */
export const versionKeys = {
  all: ['versions'] as const,
  ofFile: (fileId: string) => ['versions', fileId] as const,
};
