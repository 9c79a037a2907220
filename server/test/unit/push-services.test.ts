import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configFromEnv, resolveConfig } from '../../src/config.ts';
import { pushServiceAllows } from '../../src/config-values.ts';

// PUSH_SERVICES: where Web Push may be sent. A subscription's endpoint is whatever a browser (or
// anyone posting) says, so only the browsers' own push services are contacted.

test('by default the browsers’ push services are allowed, over https only, and nothing else', () => {
  const { pushServices } = resolveConfig({});
  for (const endpoint of [
    'https://fcm.googleapis.com/fcm/send/abc',
    'https://updates.push.services.mozilla.com/wpush/v2/abc',
    'https://web.push.apple.com/QGx',
    'https://wns2-by3p.notify.windows.com/w/?token=x',
  ]) {
    assert.ok(pushServiceAllows(pushServices, endpoint), endpoint);
  }
  for (const endpoint of [
    'http://fcm.googleapis.com/fcm/send/abc',
    'https://fcm.googleapis.com:8443/fcm/send/abc',
    'https://fcm.googleapis.com.evil.example/x',
    'https://evilfcm.googleapis.com/x',
    'https://push.services.mozilla.com.evil/x',
    'https://user:pw@fcm.googleapis.com/x',
    'https://127.0.0.1/x',
    'https://169.254.169.254/latest/meta-data',
    'not a url',
  ]) {
    assert.ok(!pushServiceAllows(pushServices, endpoint), endpoint);
  }
});

test('PUSH_SERVICES replaces the list; http only on a loopback address (a test’s own push service); anything else is refused at start', () => {
  const config = resolveConfig(configFromEnv({ PUSH_SERVICES: 'http://127.0.0.1:9999, https://*.push.example.org' }));
  assert.deepEqual(config.pushServices, ['http://127.0.0.1:9999', 'https://*.push.example.org']);
  assert.ok(pushServiceAllows(config.pushServices, 'http://127.0.0.1:9999/send/1'));
  assert.ok(!pushServiceAllows(config.pushServices, 'http://127.0.0.1:9998/send/1'));
  assert.ok(!pushServiceAllows(config.pushServices, 'https://fcm.googleapis.com/x'));
  assert.ok(pushServiceAllows(config.pushServices, 'https://eu.push.example.org/x'));
  for (const bad of ['http://fcm.googleapis.com', 'http://*.example.org', 'https://x.org/path', 'ftp://x.org', 'https://user@x.org']) {
    assert.throws(() => resolveConfig(configFromEnv({ PUSH_SERVICES: bad })), /PUSH_SERVICES/, bad);
  }
});
