import type { ReactNode } from 'react';

export function PublicBrand() {
  return (
    <div className="brand">
      <img src="/icon.svg" alt="" width="36" height="36" />
      <span>Hearth</span>
    </div>
  );
}

/** The page around what a link shows: no app navigation, since the visitor has no account here. */
export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <div className="public-page">
      <header className="public-head">
        <PublicBrand />
      </header>
      <main className="public-main" id="main">
        {children}
      </main>
    </div>
  );
}
