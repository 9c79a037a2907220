import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Icon, type IconName } from '../../ui/Icon.tsx';

export interface ShareTab<T extends string> {
  id: T;
  label: string;
  icon: IconName;
}

/**
 * The share dialogs' tabs (a file's or folder's, an album's) over the panel of the one chosen.
 * With one tab there is nothing to choose, so the panel stands alone.
 */
export function ShareTabs<T extends string>({
  tabs,
  tab,
  onTab,
  idPrefix,
  children,
}: {
  tabs: readonly ShareTab<T>[];
  tab: T;
  onTab: (tab: T) => void;
  /** Keeps ids unique when a page holds both dialogs' markup. */
  idPrefix: string;
  children: ReactNode;
}) {
  const buttons = useRef<Record<string, HTMLButtonElement | null>>({});
  // Arrow keys move between the tabs, as a tab list does.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const index = tabs.findIndex((t) => t.id === tab);
    const next = tabs[(index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!;
    onTab(next.id);
    buttons.current[next.id]?.focus();
  };
  const several = tabs.length > 1;
  return (
    <>
      {several && (
        <div className="share-tabs" role="tablist" aria-label="How to share" onKeyDown={onKeyDown}>
          {tabs.map((t) => (
            <button
              key={t.id}
              ref={(element) => {
                buttons.current[t.id] = element;
              }}
              type="button"
              role="tab"
              id={`${idPrefix}-tab-${t.id}`}
              aria-controls={`${idPrefix}-panel-${t.id}`}
              aria-selected={tab === t.id}
              tabIndex={tab === t.id ? 0 : -1}
              className="share-tab"
              onClick={() => onTab(t.id)}
            >
              <Icon name={t.icon} />
              {t.label}
            </button>
          ))}
        </div>
      )}
      <div
        role={several ? 'tabpanel' : undefined}
        id={`${idPrefix}-panel-${tab}`}
        aria-labelledby={several ? `${idPrefix}-tab-${tab}` : undefined}
      >
        {children}
      </div>
    </>
  );
}
