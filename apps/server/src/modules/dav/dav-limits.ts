/**
 * What one account may keep in WebDAV's own tables and make one answer carry
 * (docs/decisions/0039-webdav-bounds-and-unknown-length.md). Dead properties and lock
 * owners are stored outside the quota, so these bounds stand in for it.
 */

/** A dead property's value as XML, in UTF-8 bytes: an author's name, a colour, a client's sync tag. */
export const MAX_PROPERTY_VALUE_BYTES = 4 * 1024;
/** A property's namespace and local name, in characters, as their columns hold them. */
export const MAX_PROPERTY_NAMESPACE_LENGTH = 1024;
export const MAX_PROPERTY_NAME_LENGTH = 255;
/** Dead properties of one file or folder; Windows and macOS set a handful. */
export const MAX_PROPERTIES_PER_RESOURCE = 64;
/** Dead properties of one account, all resources together. */
export const MAX_PROPERTIES_PER_ACCOUNT = 10_000;

/** A lock's owner element as XML, in UTF-8 bytes: a name or a URL to contact. */
export const MAX_LOCK_OWNER_BYTES = 1024;
/** Unexpired locks of one account. */
export const MAX_LOCKS_PER_ACCOUNT = 1_000;
/** A LOCK body: a scope, a type and an owner. */
export const MAX_LOCK_BODY_BYTES = 16 * 1024;

/**
 * What dead properties and lock discovery may add to one PROPFIND answer, in UTF-8 bytes.
 * The live properties of a listing are not counted: a folder of 100,000 files still lists.
 */
export const MAX_PROPFIND_EXTRA_BYTES = 8 * 1024 * 1024;
