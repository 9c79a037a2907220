import { useRef, useState, type KeyboardEvent } from 'react';
import type { Node } from '../../api/types.ts';
import { useSession } from '../../api/useSession.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { Icon, type IconName } from '../../ui/Icon.tsx';
import { LinksPanel } from './LinksPanel.tsx';
import { PeoplePanel } from './PeoplePanel.tsx';
import './share.css';

type Tab = 'links' | 'people';

const TABS: { id: Tab; label: string; icon: IconName }[] = [
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
  const buttons = useRef<Record<string, HTMLButtonElement | null>>({});

  // Arrow keys move between the tabs, as a tab list does.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const index = tabs.findIndex((t) => t.id === tab);
    const next = tabs[(index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!;
    setTab(next.id);
    buttons.current[next.id]?.focus();
  };

  return (
    <Dialog title={`Share “${node.name}”`} onClose={onClose} wide>
      {tabs.length > 1 && (
        <div className="share-tabs" role="tablist" aria-label="How to share" onKeyDown={onKeyDown}>
          {tabs.map((t) => (
            <button
              key={t.id}
              ref={(element) => {
                buttons.current[t.id] = element;
              }}
              type="button"
              role="tab"
              id={`share-tab-${t.id}`}
              aria-controls={`share-panel-${t.id}`}
              aria-selected={tab === t.id}
              tabIndex={tab === t.id ? 0 : -1}
              className="share-tab"
              onClick={() => setTab(t.id)}
            >
              <Icon name={t.icon} />
              {t.label}
            </button>
          ))}
        </div>
      )}
      <div
        role={tabs.length > 1 ? 'tabpanel' : undefined}
        id={`share-panel-${tab}`}
        aria-labelledby={tabs.length > 1 ? `share-tab-${tab}` : undefined}
      >
        {tab === 'links' ? (
          <LinksPanel
            target={{ kind: 'node', id: node.id }}
            what={node.type === 'folder' ? 'this folder and everything in it' : 'this file'}
          />
        ) : (
          <PeoplePanel node={node} />
        )}
      </div>
    </Dialog>
  );
}
