import { Navigate } from 'react-router';
import { useSession } from '../api/useSession.ts';

/** The phone layout's width (layout.css): below it the app is a phone's, with the bottom bar. */
const PHONE = '(max-width: 720px)';

/**
 * The app's own address (where signing in and out lands, and where the installed app starts):
 * on a phone, Photos, unless the person chose My files (Account, kept with the account); on a
 * computer, My files. Any other address is kept as it is: a link followed is a link followed.
 */
export function StartPage() {
  const state = useSession();
  const phone = typeof window.matchMedia === 'function' && window.matchMedia(PHONE).matches;
  const photos = phone && !(state.kind === 'signed-in' && state.user.phone_start === 'files');
  return <Navigate to={photos ? '/gallery' : '/files'} replace />;
}
