/**
 * Every migration, one line each. Adding one is a new file, named by its number and purpose
 * (022-what-it-adds.ts, exporting `migration = { version: 22, sql }`), and its line here; the
 * numbers follow on without gaps (index.ts refuses to start otherwise, and migrations.test.ts
 * checks the names). Never edit a shipped migration: a database already ran it.
 */
export { migration as m001 } from './001-accounts-sessions-invites-settings.ts';
export { migration as m002 } from './002-node-tree-versions-uploads-libraries.ts';
export { migration as m003 } from './003-sharing-grants-links.ts';
export { migration as m004 } from './004-media-queue.ts';
export { migration as m005 } from './005-mounted-libraries.ts';
export { migration as m006 } from './006-invite-labels.ts';
export { migration as m007 } from './007-gallery-videos-index.ts';
export { migration as m008 } from './008-content-garbage.ts';
export { migration as m009 } from './009-backups.ts';
export { migration as m010 } from './010-backup-s3-destinations.ts';
export { migration as m011 } from './011-content-hashes-remembered-deletes.ts';
export { migration as m012 } from './012-shared-content-files.ts';
export { migration as m013 } from './013-albums.ts';
export { migration as m014 } from './014-photo-details-search.ts';
export { migration as m015 } from './015-playback-copies.ts';
export { migration as m016 } from './016-family-timeline.ts';
export { migration as m017 } from './017-download-tickets.ts';
export { migration as m018 } from './018-album-links-consent.ts';
export { migration as m019 } from './019-backup-keep-latest-error-codes.ts';
export { migration as m020 } from './020-media-missing-tools.ts';
export { migration as m021 } from './021-playback-quota.ts';
export { migration as m022 } from './022-notifications.ts';
export { migration as m023 } from './023-private-folder.ts';
export { migration as m024 } from './024-undo-and-photo-edits.ts';
export { migration as m025 } from './025-private-origins.ts';
export { migration as m026 } from './026-faces-people.ts';
export { migration as m027 } from './027-things.ts';
export { migration as m028 } from './028-dav-passwords.ts';
export { migration as m029 } from './029-dav-properties.ts';
