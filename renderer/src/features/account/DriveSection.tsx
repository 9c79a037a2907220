import { Link } from 'react-router';

/** Account's door to "Use Hearth as a drive": the steps and drive passwords have a page of their own. */
export function DriveSection() {
  return (
    <section className="card section" aria-labelledby="drive-title">
      <h2 id="drive-title">Use Hearth as a drive</h2>
      <p className="muted">See your Hearth files on a computer, in Finder or File Explorer, like a USB stick.</p>
      <Link className="btn" to="/account/drive">
        Set up a computer
      </Link>
    </section>
  );
}
