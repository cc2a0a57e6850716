/**
 * Sets `key` in `map`, then drops the oldest entries past `capacity`: a Map iterates in
 * insertion order, so its first key is the one set longest ago (or, for a caller that
 * deletes and sets again on each use, the least recently used).
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
  map.set(key, value);
  while (map.size > capacity) map.delete(map.keys().next().value as K);
}
