import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyIdOfMqttUsername, keyMqttUsername, submissionAcl } from './submission';
import {
  filterCovers,
  filtersOverlap,
  isTopicLevel,
  isValidTopicFilter,
  isValidTopicName,
  mayPublish,
  maySubscribe,
  reachesInternal,
  topicMatches,
} from './topics';

describe('topic names and filters', () => {
  it('accepts well-formed names and filters only', () => {
    expect(isValidTopicName('smartdata/submit/key-1')).toBe(true);
    expect(isValidTopicName('a//b')).toBe(true);
    for (const bad of ['', 'a/+', 'a/#', 'a\u0000b', 'x'.repeat(65_536)])
      expect(isValidTopicName(bad)).toBe(false);
    for (const good of ['#', '+', 'a/+/b', 'a/#', '+/+', '/', 'a//#'])
      expect(isValidTopicFilter(good), good).toBe(true);
    for (const bad of ['', 'a/#/b', 'a#', 'a/b+', '+a/b', '#/a', 'a\u0000'])
      expect(isValidTopicFilter(bad), bad).toBe(false);
  });

  it('matches as MQTT does, `$` topics only by filters naming them', () => {
    const cases: Array<[string, string, boolean]> = [
      ['smartdata/result/key-1', 'smartdata/result/key-1', true],
      ['smartdata/result/+', 'smartdata/result/key-1', true],
      ['smartdata/+/key-1', 'smartdata/result/key-1', true],
      ['smartdata/#', 'smartdata', true],
      ['smartdata/#', 'smartdata/result/key-1', true],
      ['#', 'smartdata/result/key-1', true],
      ['+', 'smartdata/result', false],
      ['smartdata/result/+', 'smartdata/result/key-1/x', false],
      ['smartdata/result/key-1', 'smartdata/result/key-12', false],
      ['#', '$SYS/broker/uptime', false],
      ['+/broker/uptime', '$SYS/broker/uptime', false],
      ['$SYS/#', '$SYS/broker/uptime', true],
      ['a/+', 'a/', true],
    ];
    for (const [filter, topic, expected] of cases)
      expect(topicMatches(filter, topic), `${filter} ~ ${topic}`).toBe(expected);
  });

  it('knows when one filter covers another', () => {
    const cases: Array<[string, string, boolean]> = [
      ['smartdata/result/key-1', 'smartdata/result/key-1', true],
      ['smartdata/result/key-1', 'smartdata/result/+', false],
      ['smartdata/result/key-1', 'smartdata/+/key-1', false],
      ['smartdata/result/key-1', '#', false],
      ['smartdata/result/key-1', 'smartdata/result/key-1/#', false],
      ['smartdata/result/key-1', 'smartdata/#', false],
      ['gw/SN1/#', 'gw/SN1/#', true],
      ['gw/SN1/#', 'gw/SN1', true],
      ['gw/SN1/#', 'gw/SN1/+/cmd', true],
      ['gw/SN1/#', 'gw/+/cmd', false],
      ['gw/+', 'gw/SN1', true],
      ['gw/+', 'gw/+', true],
      ['gw/+', 'gw/#', false],
      ['gw/+', 'gw/+/x', false],
      ['#', '$SYS/#', false],
      ['+/#', '$SYS/x', false],
      ['$SYS/#', '$SYS/x', true],
    ];
    for (const [outer, inner, expected] of cases)
      expect(filterCovers(outer, inner), `${outer} ⊇ ${inner}`).toBe(expected);
  });

  it('covering means every topic the inner filter matches is matched by the outer one', () => {
    const level = fc.constantFrom('a', 'b', '$s', '');
    const filterLevel = fc.constantFrom('a', 'b', '$s', '', '+');
    const filter = fc
      .tuple(fc.array(filterLevel, { minLength: 1, maxLength: 4 }), fc.boolean())
      .map(([levels, hash]) => [...levels, ...(hash ? ['#'] : [])].join('/'));
    const topic = fc.array(level, { minLength: 1, maxLength: 6 }).map((l) => l.join('/'));
    fc.assert(
      fc.property(
        filter,
        filter,
        fc.array(topic, { minLength: 30, maxLength: 30 }),
        (outer, inner, topics) => {
          if (!filterCovers(outer, inner)) return;
          for (const t of topics)
            if (topicMatches(inner, t))
              expect(topicMatches(outer, t), `${outer} ⊇ ${inner} at ${t}`).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('a submission key client', () => {
  const acl = submissionAcl(keyMqttUsername(7));

  it('publishes to its own submission topic only', () => {
    expect(mayPublish(acl, 'smartdata/submit/key-7')).toBe(true);
    for (const topic of [
      'smartdata/submit/key-8',
      'smartdata/submit/key-70',
      'smartdata/submit/key-7/x',
      'smartdata/result/key-7',
      '$SYS/x',
      'smartdata/submit/+',
    ])
      expect(mayPublish(acl, topic), topic).toBe(false);
  });

  it('subscribes to its own answers, and to no filter that could reach other topics', () => {
    expect(maySubscribe(acl, 'smartdata/result/key-7')).toBe(true);
    for (const filter of [
      'smartdata/submit/+/#',
      'smartdata/submit/#',
      'smartdata/+/+/#',
      'smartdata/+/+',
      'smartdata/+/key-7',
      'smartdata/result/+',
      'smartdata/result/+/#',
      'smartdata/result/#',
      'smartdata/#',
      '#',
      '+/+/+',
      '$SYS/#',
      '$share/g/smartdata/result/key-7',
      '$queue/smartdata/result/key-7',
      'smartdata/result/key-8',
      'smartdata/submit/key-7',
    ])
      expect(maySubscribe(acl, filter), filter).toBe(false);
  });

  it('has a public username that names the key, never its secret', () => {
    expect(keyMqttUsername(12)).toBe('key-12');
    expect(keyIdOfMqttUsername('key-12')).toBe(12);
    for (const bad of ['key-0', 'key-012', 'key-', 'key-1/2', 'sdk_abc', 'key-99999999999', 'KEY-1'])
      expect(keyIdOfMqttUsername(bad), bad).toBeNull();
    expect(isTopicLevel('key-12')).toBe(true);
    for (const bad of ['', 'a/b', '+', '#', '$x']) expect(isTopicLevel(bad), bad).toBe(false);
  });
});

describe("the server nodes' internal topics", () => {
  const everything = {
    publish: ['#', 'smartdata/#', 'smartdata/internal/#'],
    subscribe: ['#', 'smartdata/#'],
  };

  it('are closed to every client, even one whose ACL grants everything', () => {
    for (const topic of [
      'smartdata/internal/live/records',
      'smartdata/internal/live/devices',
      'smartdata/internal',
    ])
      expect(mayPublish(everything, topic), topic).toBe(false);
    for (const filter of [
      'smartdata/internal/live/#',
      'smartdata/internal/live/records',
      'smartdata/+/live/records',
      'smartdata/internal/#',
      'smartdata/#',
      '+/internal/#',
      '+/+/+/+',
      '#',
    ])
      expect(maySubscribe(everything, filter), filter).toBe(false);
    // what does not reach them is judged by the ACL as before
    expect(mayPublish(everything, 'smartdata/submit/key-1')).toBe(true);
    expect(maySubscribe(everything, 'smartdata/result/+')).toBe(true);
    expect(maySubscribe(everything, 'gw/+')).toBe(true);
  });

  it('overlap as MQTT matching says', () => {
    const cases: Array<[string, string, boolean]> = [
      ['smartdata/internal/#', 'smartdata/internal', true],
      ['smartdata/internal/#', 'smartdata/+', true],
      ['smartdata/internal/#', 'smartdata/result/+', false],
      ['smartdata/internal/#', '+/+/+', true],
      ['smartdata/internal/#', 'gw/+/up/#', false],
      ['a/+', 'a/b/c', false],
      ['a/+/c', '+/b/#', true],
      ['#', '$SYS/x', false],
      ['$SYS/#', '$SYS/x', true],
    ];
    for (const [a, b, expected] of cases) {
      expect(filtersOverlap(a, b), `${a} ∩ ${b}`).toBe(expected);
      expect(filtersOverlap(b, a), `${b} ∩ ${a}`).toBe(expected);
    }
  });

  it('a filter that matches an internal topic is always recognised as reaching them', () => {
    const filterLevel = fc.constantFrom('smartdata', 'internal', 'live', 'records', 'x', '', '+');
    const filter = fc
      .tuple(fc.array(filterLevel, { minLength: 1, maxLength: 5 }), fc.boolean())
      .map(([levels, hash]) => [...levels, ...(hash ? ['#'] : [])].join('/'));
    const tail = fc.array(fc.constantFrom('live', 'records', 'devices', 'x', ''), { maxLength: 3 });
    fc.assert(
      fc.property(filter, tail, (f, rest) => {
        const topic = ['smartdata', 'internal', ...rest].join('/');
        if (topicMatches(f, topic)) expect(reachesInternal(f), `${f} matches ${topic}`).toBe(true);
        if (!reachesInternal(f)) expect(topicMatches(f, topic)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('overlap means some topic matches both filters', () => {
    const filterLevel = fc.constantFrom('a', 'b', '', '+');
    const filter = fc
      .tuple(fc.array(filterLevel, { minLength: 1, maxLength: 4 }), fc.boolean())
      .map(([levels, hash]) => [...levels, ...(hash ? ['#'] : [])].join('/'));
    // every topic of 1 to 5 levels over a, b and '': enough to witness any overlap of these filters
    let level = ['a', 'b', ''];
    const all = [...level];
    for (let depth = 2; depth <= 5; depth++) {
      level = level.flatMap((t) => ['a', 'b', ''].map((l) => `${t}/${l}`));
      all.push(...level);
    }
    fc.assert(
      fc.property(filter, filter, (a, b) => {
        const witness = all.some((t) => topicMatches(a, t) && topicMatches(b, t));
        expect(filtersOverlap(a, b), `${a} ∩ ${b}`).toBe(witness);
      }),
      { numRuns: 1000 },
    );
  });
});
