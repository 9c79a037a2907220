import { lazy } from 'react';

// The tabs of the Shared view load with the app; the share dialog and the links panel load when
// first opened, so a phone that only browses its files never downloads them.
export { SharedTabs } from './SharedTabs.tsx';
export const ShareDialog = lazy(() => import('./ShareDialog.tsx').then((m) => ({ default: m.ShareDialog })));
// An album's links are managed in the album's own dialog, with the same panel.
export const LinksPanel = lazy(() => import('./LinksPanel.tsx').then((m) => ({ default: m.LinksPanel })));
export type { LinkTarget, ShareLink } from './queries.ts';
// The Links page lists every link this account made, with the same facts as a link's card.
export { useLinkedAlbums, useLinkedNodes, useMyLinks } from './queries.ts';
export { linkFacts } from './link-facts.ts';
// The Links page and the dialogs share these styles (AddPerson brings them to the first screen anyway).
import './share.css';
// Finding family members by name: albums add their people with it too.
export { AddPerson, Avatar, type RoleChoice } from './AddPerson.tsx';
// Who has something shared with them, each with what they may do: an album's people use it too.
export { PeopleList, type PeopleListProps, type Person } from './PeopleList.tsx';
// The share dialogs' tabs: an album's dialog has the same two.
export { ShareTabs, type ShareTab } from './ShareTabs.tsx';
// A photo's Details say where it is shown (albums, links), for its owner to change.
export const PhotoAppearances = lazy(() => import('./PhotoAppearances.tsx').then((m) => ({ default: m.PhotoAppearances })));
// Keep a copy of a shared file from a list's menu: Shared with me and a shared folder.
export { KeptNotice, useKeepCopy } from './KeepCopy.tsx';
