import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventBus } from '../../src/events/bus.ts';

test('an event a listener publishes is heard by every listener after the one it answers, each with its own count', () => {
  const bus = new EventBus();
  // As the albums service does: a photo's change is answered with its album's.
  bus.subscribe(({ message }) => {
    if (message.type === 'node.created') bus.publish('album.changed', { album_id: 'a1' }, { users: ['mum'] });
  });
  const heard: string[] = [];
  // Subscribed last, as the gateway is: before, it heard the album's event first, both with the later count.
  bus.subscribe(({ message }) => heard.push(`${message.type} ${bus.counts.of('mum').split('.')[1]}`));
  bus.publish('node.created', { node: { id: 'n1' } }, { users: ['mum'] });
  assert.deepEqual(heard, ['node.created 1', 'album.changed 2']);
  // Published from outside a listener, an event is still heard before publish returns.
  bus.publish('album.changed', { album_id: 'a2' }, { everyone: true });
  assert.deepEqual(heard.at(-1), 'album.changed 3');
});

test('a listener that throws stops neither the others nor the events waiting behind it', () => {
  const errors: unknown[] = [];
  const bus = new EventBus(Date.now, (error) => errors.push(error));
  bus.subscribe(({ message }) => {
    if (message.type === 'node.created') {
      bus.publish('album.changed', { album_id: 'a1' }, { users: ['mum'] });
      throw new Error('a broken listener');
    }
  });
  const heard: string[] = [];
  bus.subscribe(({ message }) => heard.push(message.type));
  bus.publish('node.created', { node: { id: 'n1' } }, { users: ['mum'] });
  assert.deepEqual(heard, ['node.created', 'album.changed']);
  assert.equal(errors.length, 1);
});
