import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, data } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { ago } from '../../ui/timeWords.ts';
import { notificationKeys, useNotifications } from './queries.ts';
import './notifications.css';

type Item = NonNullable<ReturnType<typeof useNotifications>['data']>['items'][number];

/** What the family was told, newest first: tapping one opens what it is about and marks it read. */
export function NotificationsPage() {
  const list = useNotifications();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const read = useMutation({
    mutationFn: (body: { ids: string[] } | { all: true }) => data(api.POST('/notifications/read', { body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.list }),
  });
  const open = (item: Item) => {
    if (item.read_at === null) read.mutate({ ids: [item.id] });
    // Only a place inside the app: the server makes these paths, and nothing else is followed.
    if (item.link.startsWith('/') && !item.link.startsWith('//')) void navigate(item.link);
  };
  const unread = list.data?.unread_count ?? 0;
  return (
    <>
      <div className="topbar">
        <h1>Notifications</h1>
        <Button icon="check" disabled={unread === 0 || read.isPending} onClick={() => read.mutate({ all: true })}>
          Mark all as read
        </Button>
      </div>
      {list.isPending && <Spinner label="Loading notifications" />}
      {list.isError && <Notice tone="error">{list.error.message}</Notice>}
      {read.isError && <Notice tone="error">{read.error.message}</Notice>}
      {list.data && list.data.items.length === 0 && (
        <p className="muted notifications-empty">
          Nothing yet. You will see here when someone shares photos with you or adds photos to an album you are in.
        </p>
      )}
      {list.data && list.data.items.length > 0 && (
        <ul className="notification-list" aria-label="Notifications">
          {list.data.items.map((item) => (
            <li key={item.id}>
              <button type="button" className={item.read_at === null ? 'notification unread' : 'notification'} onClick={() => open(item)}>
                <span className="notification-dot" aria-hidden="true" />
                <span className="notification-words">
                  <span className="notification-title">
                    {item.read_at === null && <span className="visually-hidden">Unread: </span>}
                    {item.title}
                  </span>
                  <span className="notification-body">{item.body}</span>
                  <span className="notification-when muted">{ago(item.updated_at)}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
