import { useQuery } from '@tanstack/react-query';
import { settingsQuery } from '../../api/queries.ts';
import { Icon } from '../../ui/Icon.tsx';

/** Where links open, as the server sees its own address (`link_reach`): home only, or anywhere. */
export function useLinkReach(): 'home_network' | 'internet' | null {
  const settings = useQuery({ ...settingsQuery, staleTime: 5 * 60_000 });
  return settings.data?.link_reach ?? null;
}

/**
 * What a link really does, said before one is made: while Hearth has no address outside the
 * home, a link opens only on the home network, and someone far away would get nothing.
 */
export function LinkReachNote({ what }: { what: string }) {
  const reach = useLinkReach();
  if (reach === 'internet')
    return <p className="muted link-reach">Anyone you send a link to can see {what}, without an account, wherever they are.</p>;
  if (reach === null) return <p className="muted link-reach">A link lets someone see {what} without an account.</p>;
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
