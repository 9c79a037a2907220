import { useQuery } from '@tanstack/react-query';
import { settingsQuery } from '../../api/queries.ts';
import { Icon } from '../../ui/Icon.tsx';

export type LinkReach = 'home_network' | 'internet' | 'tailnet';

/** Where links open, as the server sees its own address (`link_reach`): home only, the owner's tailnet, or anywhere. */
export function useLinkReach(): LinkReach | null {
  const settings = useQuery({ ...settingsQuery, staleTime: 5 * 60_000 });
  return settings.data?.link_reach ?? null;
}

/**
 * What a link really does, said before one is made: while Hearth has no address outside the
 * home, a link opens only on the home network, and someone far away would get nothing; on
 * Tailscale it opens for the people on the family's Tailscale network, wherever they are.
 */
export function LinkReachNote({ what }: { what: string }) {
  const reach = useLinkReach();
  if (reach === 'internet')
    return <p className="muted link-reach">Anyone you send a link to can see {what}, without an account, wherever they are.</p>;
  if (reach === null) return <p className="muted link-reach">A link lets someone see {what} without an account.</p>;
  if (reach === 'tailnet') {
    return (
      <div className="link-reach link-reach-home" role="note">
        <Icon name="people" />
        <p>
          <strong>Links work for anyone in your tailnet.</strong> People on your Tailscale network who have the link can see {what}, without
          an account, at home or away. Someone who isn't on it can't open the link.
        </p>
      </div>
    );
  }
  return (
    <div className="link-reach link-reach-home" role="note">
      <Icon name="home" />
      <p>
        <strong>Links work at home only.</strong> Anyone on your home Wi-Fi who has the link can see {what}, without an account. Someone
        away from home can't open it: this Hearth can't be reached from the Internet.
      </p>
    </div>
  );
}
