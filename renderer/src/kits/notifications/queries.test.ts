import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { askNotificationsAgain, notificationKeys } from './queries.ts';

describe('the notifications list asked again', () => {
  it('drops a first load still under way and asks anew, so an answer read before a change does not stand', async () => {
    const queryClient = new QueryClient();
    const answers: { unread: number; release: () => void; promise: Promise<void> }[] = [];
    let serverUnread = 1;
    // The bell's query: each ask reads the server's state now and answers when released.
    const observer = new QueryObserver(queryClient, {
      queryKey: notificationKeys.list,
      queryFn: () => {
        let release = () => {};
        const promise = new Promise<void>((resolve) => (release = resolve));
        const answer = { unread: serverUnread, release, promise };
        answers.push(answer);
        return promise.then(() => ({ unread_count: answer.unread }));
      },
    });
    const seen: (number | undefined)[] = [];
    const stop = observer.subscribe((result) => seen.push(result.data?.unread_count));
    expect(answers).toHaveLength(1);
    // The tap's read lands while the first load (which read 1 unread) is still on its way.
    serverUnread = 0;
    const asked = askNotificationsAgain(queryClient);
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[0]!.release();
    answers[1]!.release();
    await asked;
    expect(queryClient.getQueryData(notificationKeys.list)).toEqual({ unread_count: 0 });
    expect(seen.filter((n) => n !== undefined)).not.toContain(1);
    stop();
  });
});
