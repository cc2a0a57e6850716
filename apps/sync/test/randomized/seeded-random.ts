/**
 * A small seeded generator (mulberry32): the same seed draws the same operations, so a
 * failing run can be replayed from the seed it prints.
 */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One key of `weights`, drawn in proportion to its weight. */
  weighted<K extends string>(weights: Record<K, number>): K;
  /** `length` bytes drawn from the generator (contents that no other draw repeats). */
  bytes(length: number): Buffer;
  /** A generator of its own, seeded from this one: faults draw from it without moving the operations' draws. */
  fork(): SeededRandom;
}

/** The generator for `seed`. */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const nextUint32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return (value ^ (value >>> 14)) >>> 0;
  };
  const next = () => nextUint32() / 4_294_967_296;
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(0, items.length - 1)] as (typeof items)[number];
    },
    weighted: (weights) => {
      const entries = Object.entries(weights) as [keyof typeof weights, number][];
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let draw = next() * total;
      for (const [key, weight] of entries) {
        draw -= weight;
        if (draw < 0) return key;
      }
      return (entries.at(-1) as [keyof typeof weights, number])[0];
    },
    bytes: (length) => {
      const words = new Uint32Array(Math.ceil(length / 4));
      for (let index = 0; index < words.length; index += 1) words[index] = nextUint32();
      return Buffer.from(words.buffer, 0, length);
    },
    fork: () => seededRandom(nextUint32()),
  };
}
