import { Link } from 'react-router';

/** A family member who follows a link into the console is told plainly, not shown an error. */
export function OnlyOwnerPage() {
  return (
    <div className="console">
      <div className="topbar">
        <h1>Only the owner can open this page</h1>
      </div>
      <section className="card console-card" aria-label="Why this page is closed">
        <p>
          This page is for the people who look after this Hearth: approving new phones, inviting the family, and looking after the drives.
        </p>
        <p className="muted">If something here needs changing, ask the owner of this Hearth.</p>
        <Link className="btn btn-primary" to="/files">
          Back to my files
        </Link>
      </section>
    </div>
  );
}
