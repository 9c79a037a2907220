import { useState } from 'react';
import type { Node } from '../../api/types.ts';
import { useSession } from '../../api/useSession.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { LinksPanel } from './LinksPanel.tsx';
import { PeoplePanel } from './PeoplePanel.tsx';
import { ShareTabs, type ShareTab } from './ShareTabs.tsx';
import './share.css';

type Tab = 'links' | 'people';

const TABS: ShareTab<Tab>[] = [
  { id: 'links', label: 'Link', icon: 'link' },
  { id: 'people', label: 'Family', icon: 'people' },
];

/**
 * Sharing one file or folder: a link for anyone (only the owner makes links) and access for
 * family members. Render it only while open; it closes with Escape, the Close button or a tap
 * beside it.
 */
export function ShareDialog({ node, onClose, initialTab }: { node: Node; onClose: () => void; initialTab?: Tab }) {
  const state = useSession();
  const isOwner = state.kind === 'signed-in' && state.user.id === node.owner_id;
  const tabs = isOwner ? TABS : TABS.filter((tab) => tab.id === 'people');
  const [tab, setTab] = useState<Tab>(isOwner ? (initialTab ?? 'links') : 'people');

  return (
    <Dialog title={`Share “${node.name}”`} onClose={onClose} wide>
      <ShareTabs tabs={tabs} tab={tab} onTab={setTab} idPrefix="share">
        {tab === 'links' ? (
          <LinksPanel
            target={{ kind: 'node', id: node.id }}
            what={node.type === 'folder' ? 'this folder and everything in it' : 'this file'}
          />
        ) : (
          <PeoplePanel node={node} />
        )}
      </ShareTabs>
    </Dialog>
  );
}
