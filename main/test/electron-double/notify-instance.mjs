/** Tells the running instance (listening on the socket) about a second launch; exit 0 when one answered. */
import net from 'node:net';
import process from 'node:process';

const [socket, argv] = process.argv.slice(2);
const conn = net.connect(socket, () => conn.end(argv, () => process.exit(0)));
conn.on('error', () => process.exit(1));
