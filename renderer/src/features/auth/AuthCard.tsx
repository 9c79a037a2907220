import type { ReactNode } from 'react';

/** The centred card of the screens before sign-in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="center-page">
      <div className="card">
        <div className="brand">
          <img src="/icon.svg" alt="" width="36" height="36" />
          <span>Hearth</span>
        </div>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
