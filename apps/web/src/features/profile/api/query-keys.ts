/** Query keys of the Profile page's own data (the user itself lives in the session). */
export const profileKeys = {
  overview: ['profile', 'overview'] as const,
};
