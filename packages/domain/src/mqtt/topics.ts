/**
 * MQTT topic rules the broker side of the platform judges clients by (embedded broker, the
 * HTTP hooks of an external broker, and what the server provisions on Mosquitto).
 *
 * A client's rights are an ACL of topic filters. A publish is allowed when one of its publish
 * filters matches the topic. A subscription is judged by what it could match, not by its text:
 * it is allowed only when one of its subscribe filters covers every topic the requested filter
 * could ever match. `smartdata/+/result` or `#` hold a client's own topic among others, so they
 * are refused. Topics and filters starting with `$` (`$SYS/…`, `$share/…`, `$queue/…`,
 * `$CONTROL/…`) belong to brokers and servers, never to clients.
 */

export interface TopicAcl {
  /** topic filters the client may publish to */
  readonly publish: readonly string[];
  /** filters the client may subscribe to, or to any narrower filter */
  readonly subscribe: readonly string[];
}

/** MQTT's limit on a topic's UTF-8 length */
const MAX_TOPIC_BYTES = 65_535;

const encoder = new TextEncoder();

/** Whether `text` takes at most `max` bytes in UTF-8 (at most 3 per UTF-16 unit: rarely encoded). */
function fitsUtf8(text: string, max: number): boolean {
  if (text.length * 3 <= max) return true;
  if (text.length > max) return false;
  return encoder.encode(text).length <= max;
}

/** A topic name a client may publish to: not empty, no wildcard, no NUL, not too long. */
export function isValidTopicName(topic: string): boolean {
  if (typeof topic !== 'string' || topic.length === 0) return false;
  if (topic.includes('+') || topic.includes('#') || topic.includes('\u0000')) return false;
  return fitsUtf8(topic, MAX_TOPIC_BYTES);
}

/** A subscription filter: `+` fills a whole level, `#` the whole last level. */
export function isValidTopicFilter(filter: string): boolean {
  if (typeof filter !== 'string' || filter.length === 0 || filter.includes('\u0000')) return false;
  if (!fitsUtf8(filter, MAX_TOPIC_BYTES)) return false;
  const levels = filter.split('/');
  return levels.every((level, i) => {
    if (level === '#') return i === levels.length - 1;
    if (level === '+') return true;
    return !level.includes('+') && !level.includes('#');
  });
}

/** Topics and filters of brokers and servers: `$SYS/…`, `$share/…`, `$queue/…`, `$CONTROL/…`. */
export function isReservedTopic(topicOrFilter: string): boolean {
  return topicOrFilter.startsWith('$');
}

const isWildcard = (level: string | undefined) => level === '+' || level === '#';

/**
 * Whether `filter` matches `topic` (both valid). A filter starting with a wildcard does not
 * match topics starting with `$` (MQTT 3.1.1 4.7.2).
 */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  if (isWildcard(f[0]) && topic.startsWith('$')) return false;
  for (let i = 0; i < f.length; i++) {
    const level = f[i]!;
    if (level === '#') return true; // also the parent: `a/#` matches `a`
    if (i >= t.length) return false;
    if (level !== '+' && level !== t[i]) return false;
  }
  return f.length === t.length;
}

/**
 * Whether every topic `inner` could match is matched by `outer` (both valid filters): the
 * test a subscription must pass against the filters a client is granted.
 */
export function filterCovers(outer: string, inner: string): boolean {
  const o = outer.split('/');
  const n = inner.split('/');
  // `+/…` and `#` never match `$` topics, so they cannot cover a filter that names one
  if (isWildcard(o[0]) && inner.startsWith('$')) return false;
  for (let i = 0; ; i++) {
    const a = o[i];
    const b = n[i];
    if (a === '#') return true;
    if (a === undefined && b === undefined) return true;
    // inner goes deeper (or is `#`, which also goes deeper) than outer reaches
    if (a === undefined || b === undefined || b === '#') return false;
    if (a === '+') continue; // b is one level, literal or `+`
    if (b === '+' || a !== b) return false;
  }
}

/**
 * The server nodes' own topics: live events relayed between nodes through an external broker
 * (every node publishes and reads them). No client may publish or subscribe there, whatever
 * its ACL grants.
 */
export const INTERNAL_TOPIC_ROOT = 'smartdata/internal';
export const LIVE_RELAY_TOPIC_PREFIX = `${INTERNAL_TOPIC_ROOT}/live/`;
export const LIVE_RELAY_FILTER = `${INTERNAL_TOPIC_ROOT}/live/#`;

/** Whether some topic could match both filters (valid filters; topic names are filters too). */
export function filtersOverlap(a: string, b: string): boolean {
  const x = a.split('/');
  const y = b.split('/');
  if (a.startsWith('$') !== b.startsWith('$') && (isWildcard(x[0]) || isWildcard(y[0]))) return false;
  for (let i = 0; ; i++) {
    const p = x[i];
    const q = y[i];
    if (p === '#' || q === '#') return true;
    if (p === undefined || q === undefined) return p === undefined && q === undefined;
    if (p === '+' || q === '+' || p === q) continue;
    return false;
  }
}

/** Whether a topic, or a topic a filter could match, is one of the server nodes' own. */
export function reachesInternal(topicOrFilter: string): boolean {
  return filtersOverlap(topicOrFilter, `${INTERNAL_TOPIC_ROOT}/#`);
}

/** Whether a client holding `acl` may publish to `topic`. */
export function mayPublish(acl: TopicAcl, topic: string): boolean {
  if (!isValidTopicName(topic) || isReservedTopic(topic) || reachesInternal(topic)) return false;
  return acl.publish.some((filter) => isValidTopicFilter(filter) && topicMatches(filter, topic));
}

/** Whether a client holding `acl` may subscribe to `filter`: only if its grants cover all it could match. */
export function maySubscribe(acl: TopicAcl, filter: string): boolean {
  if (!isValidTopicFilter(filter) || isReservedTopic(filter) || reachesInternal(filter)) return false;
  return acl.subscribe.some((granted) => isValidTopicFilter(granted) && filterCovers(granted, filter));
}

/** Text that can stand as one level of a topic (a username in `smartdata/submit/<username>`). */
export function isTopicLevel(text: string): boolean {
  return (
    typeof text === 'string' &&
    text.length > 0 &&
    !text.startsWith('$') &&
    !['/', '+', '#', '\u0000'].some((c) => text.includes(c)) &&
    fitsUtf8(text, 256)
  );
}
