/** Query keys of the user's settings. */
export const settingsKeys = {
  all: ['settings'] as const,
};
