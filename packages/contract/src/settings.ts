import { Type, type Static } from 'typebox';
import { LANGUAGES } from './languages.ts';
import { ListingOrderField, ListingSortField } from './listing.ts';

const closed = { additionalProperties: false } as const;

export { LANGUAGES };

/** The whole settings object: every key required, no other key allowed (docs/api.md#account). */
export const Settings = Type.Object(
  {
    notifications: Type.Object(
      {
        email: Type.Boolean(),
        push: Type.Boolean(),
        fileSharing: Type.Boolean(),
        storageAlerts: Type.Boolean(),
        securityAlerts: Type.Boolean(),
      },
      closed,
    ),
    privacy: Type.Object(
      {
        profileVisibility: Type.Union([Type.Literal('private'), Type.Literal('friends'), Type.Literal('public')]),
        shareAnalytics: Type.Boolean(),
        /** Read-only here: the two-factor routes change it. */
        twoFactorAuth: Type.Boolean(),
      },
      closed,
    ),
    appearance: Type.Object(
      {
        theme: Type.Union([Type.Literal('light'), Type.Literal('dark'), Type.Literal('system')]),
        language: Type.Union([Type.Literal('en'), Type.Literal('es'), Type.Literal('fr'), Type.Literal('de'), Type.Literal('zh')]),
      },
      closed,
    ),
    storage: Type.Object(
      {
        /** Purge Trash items deleteAfterDays after deletion. */
        autoDelete: Type.Boolean(),
        deleteAfterDays: Type.Union([Type.Literal(7), Type.Literal(30), Type.Literal(90), Type.Literal(365)]),
        /** Deflate zip downloads and exports; stored when off. */
        compressionEnabled: Type.Boolean(),
      },
      closed,
    ),
    /**
     * The order the drive lists a folder in, remembered per user; the web sends it as a
     * listing's `sort` and `order`. Always in an answer; optional in a PUT, which keeps the
     * stored one without it, so clients that predate it save their other settings unchanged.
     */
    listing: Type.Optional(Type.Object({ sort: ListingSortField, order: ListingOrderField }, closed)),
  },
  closed,
);
export type Settings = Static<typeof Settings>;

export const SettingsResponse = Type.Object({ settings: Settings });
export type SettingsResponse = Static<typeof SettingsResponse>;

/** The interface and e-mail languages. */
export type Language = Settings['appearance']['language'];
