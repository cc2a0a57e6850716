// Values without the schemas, so the web app can read them without bundling TypeBox.

/** How long an app password's name may be, once trimmed. */
export const APP_PASSWORD_NAME_MAX_LENGTH = 100;
/** How many app passwords one account may hold at once. */
export const APP_PASSWORDS_PER_USER = 50;
