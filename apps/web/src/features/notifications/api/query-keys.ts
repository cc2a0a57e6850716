/** Query keys of the header bell. */
export const notificationKeys = {
  all: ['notifications'] as const,
};
