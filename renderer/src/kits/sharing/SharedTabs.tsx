import { NavLink } from 'react-router';
import './shared-tabs.css';

/**
 * The two sides of sharing, one tap apart: what others shared with me, and the links I made.
 * A file of its own, light, so the Shared view shows it without loading the sharing dialogs.
 */
export function SharedTabs() {
  return (
    <nav className="shared-tabs" aria-label="Shared">
      <NavLink to="/shared" end className="chip">
        Shared with me
      </NavLink>
      <NavLink to="/shared/links" className="chip">
        Links I made
      </NavLink>
    </nav>
  );
}
