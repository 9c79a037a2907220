import type { ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';
import { Icon, type IconName } from './Icon.tsx';
import './layout.css';
import './nav-badge.css';

export interface NavItem {
  to: string;
  label: string;
  icon: IconName;
  /** Shown in the phone's bottom bar too (the rest live in the side bar or a menu). */
  primary?: boolean;
  /** Pages reached from this one on a phone (Starred, Recent, Trash from My files): its tab stays lit there. */
  within?: string[];
  /** Something waiting there (phones to approve), counted on the link; `badgeLabel` says what, for screen readers. */
  badge?: number;
  badgeLabel?: string;
}

function Badge({ item }: { item: NavItem }) {
  if (!item.badge) return null;
  return (
    <span className="nav-badge">
      {item.badge}
      <span className="visually-hidden"> {item.badgeLabel ?? 'new'}</span>
    </span>
  );
}

/** The frame around signed-in screens: a side bar on wide screens, a bottom bar on phones. */
export function AppShell({
  nav,
  footer,
  actions,
  children,
}: {
  nav: NavItem[];
  footer?: ReactNode;
  /** Beside the name at the top (the bell): in the side bar on a computer, in a slim row above the page on a phone. */
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { pathname } = useLocation();
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <img src="/icon.svg" alt="" width="36" height="36" />
          <span>Hearth</span>
          {actions && <div className="brand-actions">{actions}</div>}
        </div>
        {nav.map((item) => (
          <NavLink key={item.to} to={item.to} className="nav-link">
            <Icon name={item.icon} />
            <span>{item.label}</span>
            <Badge item={item} />
          </NavLink>
        ))}
        <div className="spacer" />
        {footer}
      </nav>
      <main className="main" id="main">
        {actions && <div className="phone-top">{actions}</div>}
        {children}
      </main>
      <nav className="bottombar" aria-label="Main">
        {nav
          .filter((item) => item.primary)
          .map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              className={item.within?.some((p) => pathname.startsWith(p)) ? 'nav-link nav-link-within' : 'nav-link'}
            >
              <Icon name={item.icon} />
              <span>{item.label}</span>
              {/* After the label, so it reads "Manage, 1 device waiting"; drawn on the icon's corner. */}
              <Badge item={item} />
            </NavLink>
          ))}
      </nav>
    </div>
  );
}
