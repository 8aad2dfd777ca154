// Anchors the islands link to, apart from the words: an island's script carries no copy.

/** The privacy section's anchor. */
export const PRIVACY_ID = 'privacy'
